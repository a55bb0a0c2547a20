import os, django
os.environ.setdefault("DJANGO_SETTINGS_MODULE","federation.settings"); django.setup()
from django.test import Client
from tests.benchmarks.fresh_figures import Writer, shown_points, POINTS
w=Writer()
html=Client(HTTP_HOST="localhost").get(f"/saisons/{w.season.name}/").content.decode()
print(len(POINTS.findall(html)), shown_points(html, w.player, True), w.total())
from championship.standings import season_points
print(len(season_points(w.season)))
import re
ids={int(pk) for pk,_ in POINTS.findall(html)}
from federation.models import Player
pts=season_points(w.season)
for p in Player.objects.all():
    if p.name in pts and p.pk not in ids: print(p.pk, p.name, pts[p.name]); i=html.find(f'joueur-{p.pk}"'); print(html[i-50:i+700])
i=html.find("Igor 2"); print(i); 
st = __import__("championship.standings", fromlist=["x"])
from championship.lateness import default_as_of
s=st.compute_standings(w.season, default_as_of(w.season), st.load_season(w.season))
print([ (r.player.name, r.points) for r in s.unranked])
j=html.find("hors classement"); print(html[j-200:j+1500] if j>0 else "no unranked")
print(html[87490-1500:87490+300])
