"""A group's roster page (its edit link only): rename the group, respell or rename a name (a name another has
asks whether the two are one person, and merges them if so), remove a name that played no game, delete the
group after confirming. The work is ``roster``'s; each page commits what it changed."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ...errors import RefereeError
from ..errors import Refusal, error_text, status_of
from ..i18n import gettext
from ..models import Group, Member, db
from . import roster
from .forms import ConfirmForm, GroupNameForm, RosterNameForm
from .routes import bp, edit_only, links

ROSTER_PAGE = 60  # names on one page of the roster: a group's whole roster, but for a very large one


def _page(group: Group, token: str, status: int = 200, at: int | None = None, **shown: Any) -> tuple[str, int]:
    """The roster page: each name with the games it played (a name with none can be removed), ROSTER_PAGE names
    at a time in the roster's order: the page the address asks for, or the one holding the name ``at`` (a
    member id) where an answer is about it."""
    members = group.members
    pages = max(1, -(-len(members) // ROSTER_PAGE))
    page = min(_page_of(group, at), pages)
    names = members[(page - 1) * ROSTER_PAGE:page * ROSTER_PAGE]
    seats = roster.seats_by_name(group)
    played = {m.id: len({p.game_id for p in seats.get(m.key, [])}) for m in names}
    forms = {m.id: RosterNameForm(formdata=None, name=m.name) for m in names}
    if "member" in shown:  # the name whose form was sent keeps what was typed
        forms[shown["member"].id] = shown.pop("form")
    return render_template("groups/roster.html", group=group, token=token, names=names, played=played, forms=forms,
                           page=page, pages=pages, first=(page - 1) * ROSTER_PAGE + 1,
                           group_form=shown.pop("group_form", GroupNameForm(formdata=None, name=group.name)),
                           confirm_form=ConfirmForm(formdata=None), **shown), status


def _page_of(group: Group | None = None, at: int | None = None) -> int:
    """The roster page that holds the name ``at`` (a member id) of ``group``, else the page the address asks
    for."""
    index = next((i for i, m in enumerate(group.members) if m.id == at), None) \
        if group is not None and at is not None else None
    if index is not None:
        return index // ROSTER_PAGE + 1
    try:
        return max(1, int(request.args.get("page", "1")))
    except ValueError:
        return 1


def _member(group: Group, member_id: int) -> Member:
    found = next((m for m in group.members if m.id == member_id), None)
    if found is None:
        raise Refusal("not_on_roster", "name", name=str(member_id))
    return found


def _back(token: str, group: Group | None = None, at: int | None = None) -> BaseResponse:
    """Back to the roster page (at its top, where the flash says what was done): the page holding the name
    ``at`` (a member id), else the page the form was sent from."""
    page = _page_of(group, at)
    return redirect(url_for("groups.roster_page", token=token, page=page if page > 1 else None))


@bp.get("/<token>/roster")
def roster_page(token: str) -> Any:
    group = edit_only(token)
    return _page(group, token)


@bp.post("/<token>/name")
def rename_group(token: str) -> Any:
    group = edit_only(token)
    form = GroupNameForm()
    if not form.validate():
        return _page(group, token, 400, error=error_text("form_expired"), group_form=form)
    try:
        roster.rename_group(group, form.name.data)
    except RefereeError as e:
        db.session.rollback()
        return _page(group, token, status_of(e), error=error_text(e.code, e.params), group_form=form)
    db.session.commit()
    flash(gettext("The group is now called %(name)s.", name=group.name), "saved")
    return _back(token)


@bp.post("/<token>/roster/<int:member_id>")
def rename_member(token: str, member_id: int) -> Any:
    group = edit_only(token)
    form = RosterNameForm()
    try:
        member = _member(group, member_id)
    except RefereeError:
        return _page(group, token, 404, error=error_text("not_on_roster", {"name": form.name.data or ""}))
    if not form.validate():
        return _page(group, token, 400, at=member.id, error=error_text("form_expired"), member=member, form=form)
    old = member.name
    try:
        now = roster.rename_member(group, member, form.name.data, merge=form.merge.data == "1")
    except RefereeError as e:
        db.session.rollback()
        ask = e.code == "name_taken"  # the question, with the answer that merges the two
        return _page(group, token, status_of(e), at=member.id, error=error_text(e.code, e.params), member=member,
                     form=form, merge_asked=member.id if ask else None, error_member=member.id)
    db.session.commit()
    if now is not member:
        flash(gettext("%(old)s and %(new)s are one person now: %(new)s.", old=old, new=now.name), "saved")
    elif now.name != old:
        flash(gettext("%(old)s is now %(new)s.", old=old, new=now.name), "saved")
    return _back(token, group, now.id)


@bp.post("/<token>/roster/<int:member_id>/remove")
def remove_member(token: str, member_id: int) -> Any:
    group = edit_only(token)
    if not ConfirmForm().validate():
        return _page(group, token, 400, error=error_text("form_expired"))
    try:
        member = _member(group, member_id)
        name = member.name
        roster.remove_member(group, member)
    except RefereeError as e:
        db.session.rollback()
        return _page(group, token, status_of(e), at=member_id, error=error_text(e.code, e.params),
                     error_member=member_id)
    db.session.commit()
    flash(gettext("%(name)s is off the roster.", name=name), "saved")
    return _back(token)


@bp.post("/<token>/delete")
def delete_group(token: str) -> Any:
    group = edit_only(token)
    form = ConfirmForm()
    if not form.validate() or not form.confirm.data:
        return _page(group, token, 422, error=gettext("Tick the box to delete the group."), confirm_open=True)
    name = group.name
    roster.delete_group(group)
    db.session.commit()
    flash(gettext("The group %(name)s was deleted; its games still open by their own links.", name=name), "saved")
    return links.forget(redirect(url_for("groups.mine")), token)
