"""A member's private link, stored as the digest of its secret, and the phone sessions it opened
(federation.private_links; docs/exploitation.md, « Comptes et sécurité »)."""

import django.db.models.deletion
import django.utils.timezone
import simple_history.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('federation', '0005_remaining_rounds_help'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='HistoricalMemberKey',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='donné le')),
                ('renewed_at', models.DateTimeField(blank=True, null=True, verbose_name='renouvelé le')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('player', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='federation.player', verbose_name='joueur')),
                ('renewed_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='renouvelé par')),
            ],
            options={
                'verbose_name': 'historical lien privé',
                'verbose_name_plural': 'historical liens privés',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='MemberKey',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('digest', models.CharField(max_length=64, unique=True, verbose_name='empreinte')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='donné le')),
                ('renewed_at', models.DateTimeField(blank=True, null=True, verbose_name='renouvelé le')),
                ('player', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='member_key', to='federation.player', verbose_name='joueur')),
                ('renewed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='renouvelé par')),
            ],
            options={
                'verbose_name': 'lien privé',
                'verbose_name_plural': 'liens privés',
            },
        ),
        migrations.CreateModel(
            name='PhoneSession',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('session_key', models.CharField(max_length=40, unique=True, verbose_name='session')),
                ('browser', models.CharField(blank=True, max_length=30, verbose_name='navigateur')),
                ('system', models.CharField(blank=True, max_length=30, verbose_name='système')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='ouverte le')),
                ('last_seen_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='vue le')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='phone_sessions', to='federation.player', verbose_name='joueur')),
            ],
            options={
                'verbose_name': "session d'un téléphone",
                'verbose_name_plural': 'sessions des téléphones',
                'ordering': ['-last_seen_at', '-pk'],
            },
        ),
    ]
