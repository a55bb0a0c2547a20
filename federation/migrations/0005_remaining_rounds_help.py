"""The label and help of `Season.remaining_rounds` say what it decides now: only a season without
any night on its calendar (docs/calendrier.md, « Les manches restantes »)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('federation', '0004_rulebook_round_limits'),
    ]

    operations = [
        migrations.AlterField(
            model_name='historicalseason',
            name='remaining_rounds',
            field=models.PositiveSmallIntegerField(default=0, help_text="Ne sert qu'à une saison qui n'a aucune soirée au calendrier (une saison importée, une fédération qui n'utilise pas le calendrier) : les manches régulières qu'il reste à jouer, pour les statuts des play-offs. Dès la première soirée programmée, seul le calendrier compte et ce nombre est ignoré.", verbose_name='manches régulières restantes (saison sans calendrier)'),
        ),
        migrations.AlterField(
            model_name='season',
            name='remaining_rounds',
            field=models.PositiveSmallIntegerField(default=0, help_text="Ne sert qu'à une saison qui n'a aucune soirée au calendrier (une saison importée, une fédération qui n'utilise pas le calendrier) : les manches régulières qu'il reste à jouer, pour les statuts des play-offs. Dès la première soirée programmée, seul le calendrier compte et ce nombre est ignoré.", verbose_name='manches régulières restantes (saison sans calendrier)'),
        ),
    ]
