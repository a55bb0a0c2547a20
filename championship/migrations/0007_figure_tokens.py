"""The token of each season's figures, and the triggers that change it (championship.lib.figure_tokens)."""

import django.db.models.deletion
from django.db import migrations, models

# The triggers moved with the figure cache to championship.lib (issue 22); the migration runs the same code.
from championship.lib.figure_tokens import install_triggers, remove_triggers


def install(apps, schema_editor):
    install_triggers(schema_editor.connection.alias, apps)


def remove(apps, schema_editor):
    remove_triggers(schema_editor.connection.alias)


class Migration(migrations.Migration):

    dependencies = [
        ('championship', '0006_round_paper_totals'),
        ('federation', '0004_rulebook_round_limits'),
    ]

    operations = [
        migrations.CreateModel(
            name='FigureToken',
            fields=[
                ('season', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='+', serialize=False, to='federation.season')),
                ('token', models.CharField(max_length=32)),
            ],
            options={
                'verbose_name': 'jeton des chiffres',
                'verbose_name_plural': 'jetons des chiffres',
            },
        ),
        migrations.RunPython(install, remove),
    ]
