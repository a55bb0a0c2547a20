import os, sys, time, django
os.environ.setdefault("DJANGO_SETTINGS_MODULE","federation.settings"); django.setup()
from django.test import RequestFactory
from championship.tables_rounds import RoundListTable
from federation.models import Season
from django.utils import translation
translation.activate("fr")
s=Season.objects.current()
rounds=list(s.rounds.prefetch_related("seats__player").order_by("stage","table","number"))
req=RequestFactory().get("/")
for _ in range(5):
    t=time.process_time(); html=RoundListTable(rounds, can_enter=False).as_html(req); a=time.process_time()-t
    t=time.process_time(); rounds=list(s.rounds.prefetch_related("seats__player").order_by("stage","table","number")); b=time.process_time()-t
    print(f"as_html {a*1000:.0f} ms, query {b*1000:.0f} ms, {len(html)} chars")
