import os, sys, time, django
os.environ.setdefault("DJANGO_SETTINGS_MODULE","federation.settings"); django.setup()
from django.test import Client
from django.core.cache import cache
from federation.models import Season
from pyinstrument import Profiler
s=Season.objects.current()
c=Client(HTTP_HOST="localhost")
url=sys.argv[1].replace("SEASON", s.name)
c.get(url); 
for _ in range(3):
    cache.clear(); t=time.perf_counter(); c.get(url); print("cold", (time.perf_counter()-t)*1000)
    t=time.perf_counter(); c.get(url); print("warm", (time.perf_counter()-t)*1000)
cache.clear()
p=Profiler(interval=0.0005); p.start(); c.get(url); p.stop()
print(p.output_text(show_all=False)[:6000])
