from django.contrib import admin
from django.urls import include, path

from tracker.views import boards, nights, plays, printing, sheets

urlpatterns = [
    path("", nights.home, name="home"),
    path("health/", nights.health, name="health"),
    path("nights/new/", nights.night_new, name="night_new"),
    path("nights/<int:night_id>/", nights.night_detail, name="night_detail"),
    path("nights/<int:night_id>/plays/new/", plays.play_new, name="play_new"),
    path("players/new/", nights.player_add, name="player_add"),
    path("plays/<int:play_id>/", plays.play_detail, name="play_detail"),
    path("plays/<int:play_id>/entry/", plays.play_entry, name="play_entry"),
    path("plays/<int:play_id>/edit/", plays.play_edit, name="play_edit"),
    path("plays/<int:play_id>/abandon/", plays.play_abandon, name="play_abandon"),
    path("plays/<int:play_id>/cells/<int:player_id>/<slug:field>/", sheets.cell_editor,
         name="cell_editor"),
    path("plays/<int:play_id>/undo/", sheets.sheet_undo, name="sheet_undo"),
    path("plays/<int:play_id>/extra-kniffels/", sheets.sheet_extra_kniffels,
         name="sheet_extra_kniffels"),
    path("share/<slug:kind>/<int:object_id>/", boards.share_create, name="share_create"),
    path("share/<str:token>/revoke/", boards.share_revoke, name="share_revoke"),
    path("board/<str:token>/", boards.board, name="board"),
    path("print/pad/", printing.pad, name="print_pad"),
    path("print/tally/", printing.tally, name="print_tally"),
    path("plays/<int:play_id>/print/", printing.play_sheet, name="print_play"),
    path("nights/<int:night_id>/certificates/", printing.night_certificates,
         name="night_certificates"),
    path("series/<int:series_id>/print/", printing.series_standings, name="print_series"),
    path("series/<int:series_id>/certificates/", printing.series_certificates,
         name="series_certificates"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
