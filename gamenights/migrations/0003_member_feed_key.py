"""A member's own calendar feed key (docs/calendrier.md, « L'adresse de son calendrier »)."""


import django.db.models.deletion
import django.utils.timezone
import simple_history.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('federation', '0004_rulebook_round_limits'),
        ('gamenights', '0002_nights_from_remaining_rounds'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='FeedKey',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(max_length=64, verbose_name='clé')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='créée le')),
                ('renewed_at', models.DateTimeField(blank=True, null=True, verbose_name='renouvelée le')),
                ('player', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='feed_key', to='federation.player', verbose_name='joueur')),
            ],
            options={
                'verbose_name': 'clé du calendrier personnel',
                'verbose_name_plural': 'clés des calendriers personnels',
            },
        ),
        migrations.CreateModel(
            name='HistoricalFeedKey',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='créée le')),
                ('renewed_at', models.DateTimeField(blank=True, null=True, verbose_name='renouvelée le')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('player', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='federation.player', verbose_name='joueur')),
            ],
            options={
                'verbose_name': 'historical clé du calendrier personnel',
                'verbose_name_plural': 'historical clés des calendriers personnels',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
    ]
