"""The second factor's section of « Mon compte » (`{% load second_factor %}`): whether the
account may have one and whether it has (federation.second_factor)."""

from django import template

from federation import second_factor

register = template.Library()


@register.simple_tag(takes_context=True)
def second_factor_state(context):
    """None when the section is not shown (not an official, nor staff, nor a holder; or a
    session opened by a private link); else whether the account has a confirmed device."""
    request = context["request"]
    if request.session.get("by_link") or not second_factor.may_have_second_factor(request.user):
        return None
    return {"active": second_factor.confirmed_device(request.user) is not None}
