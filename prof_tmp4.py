import os, time, django
os.environ.setdefault("DJANGO_SETTINGS_MODULE","federation.settings"); django.setup()
from django.template.base import render_value_in_context
from django.template import Context
from django.utils.html import format_html, mark_safe, conditional_escape
from django.test import RequestFactory
from django.utils import translation
from championship.tables_rounds import RoundListTable
from championship.tables_standings import StandingsTable
from championship.standings import season_standings
from federation.models import Season
translation.activate("fr")

def fast_html(table, request):
    context = Context(autoescape=True)
    out = [f"<table {table.attrs.as_html()}>" if table.attrs else "<table>"]
    if table.show_header:
        out.append("<thead><tr>")
        for column in table.columns:
            out.append(format_html("<th {}>{}</th>", column.attrs["th"].as_html(), column.header))
        out.append("</tr></thead>")
    out.append("<tbody>")
    rows = 0
    for row in table.rows:
        rows += 1
        cells = "".join(
            f"<td {column.attrs['td'].as_html()}>{render_value_in_context(cell, context)}</td>" for column, cell in row.items()
        )
        out.append(f"<tr {row.attrs.as_html()}>{cells}</tr>")
    if not rows and table.empty_text:
        out.append(format_html('<tr><td colspan="{}">{}</td></tr>', len(table.columns), table.empty_text))
    out.append("</tbody></table>")
    return mark_safe("".join(out))

s=Season.objects.current()
rounds=list(s.rounds.prefetch_related("seats__player").order_by("stage","table","number"))
req=RequestFactory().get("/")
st=season_standings(s)
for _ in range(4):
    t=time.process_time(); a=RoundListTable(rounds, can_enter=False).as_html(req); t1=time.process_time()-t
    t=time.process_time(); b=fast_html(RoundListTable(rounds, can_enter=False), req); t2=time.process_time()-t
    t=time.process_time(); c=StandingsTable(st.ranked, s).as_html(req); t3=time.process_time()-t
    t=time.process_time(); d=fast_html(StandingsTable(st.ranked, s), req); t4=time.process_time()-t
    print(f"rounds tables2 {t1*1000:.0f} fast {t2*1000:.0f} | standings tables2 {t3*1000:.0f} fast {t4*1000:.0f}")
import re
norm=lambda h: re.sub(r"\s+"," ",re.sub(r">\s+<","><",h)).replace(' >','>')
print(norm(a)[:300]); print(norm(b)[:300])
print(norm(a)==norm(b), norm(c)==norm(d))
from pyinstrument import Profiler
p=Profiler(interval=0.0002); p.start(); fast_html(RoundListTable(rounds, can_enter=False), req); p.stop()
print(p.output_text(show_all=False)[:6000])
