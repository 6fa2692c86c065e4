"""The screens tool plays a game against the stand-in and saves what each person sees at each moment;
every message it saved is drawn with all its texts, in order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.tools.support import appears_in_order, expected_reading, parse, twemoji
from tools.screens import capture, render
from tools.screens.scenarios import review, tour

MOMENTS = [
    "lobby",
    "lobby-host-settings",
    "table-bidding",
    "hand-bidding-your-move",
    "table-mid-trick",
    "hand-your-move",
    "hand-not-your-move",
    "my-hand",
    "refusal-out-of-turn",
    "final-standings",
    "channel-whole-game",
    "dm-whole-game",
]


async def test_a_short_game_is_saved_at_each_moment_and_every_saved_message_is_drawn_whole(tmp_path: Path) -> None:
    paths = await capture.run(tour, tmp_path, rounds=2)
    assert [render.load(p)["name"] for p in paths] == MOMENTS
    assert list(capture.snapshot_files(tmp_path)) == paths
    names_drawn = 0
    for path in paths:
        snapshot = render.load(path)
        focus = snapshot["focus"]
        view = snapshot["views"][focus["user"]][focus["place"]]
        assert focus["messages"], f"{snapshot['name']} has no message in focus"
        assert set(focus["messages"]) <= set(view), f"{snapshot['name']}: the focus is not in {focus['user']}'s view"
        ctx = render.context_for(snapshot, path.parent, twemoji())
        names = {**ctx.users, **ctx.channels}
        for message in render.snapshot_messages(snapshot, path.parent, view):
            drawn = parse(render.draw_message(message, ctx))
            missing = appears_in_order(drawn.reading(), expected_reading(message.data, names))
            assert missing == [], f"{snapshot['name']}, message {message.id}: not drawn in order: {missing}"
            names_drawn += 1
    assert names_drawn > len(paths)


async def test_a_snapshot_holds_each_persons_views_with_authors_times_and_the_attachments(tmp_path: Path) -> None:
    paths = await capture.run(tour, tmp_path, rounds=1)
    by_name = {render.load(p)["name"]: render.load(p) for p in paths}
    final = by_name["final-standings"]
    assert set(final["views"]) == {"alice", "bob", "carol", "everyone"}
    for views in final["views"].values():
        assert set(views) == {"channel", "dm", "ephemeral"}
    (message_id,) = final["focus"]["messages"]
    entry: dict[str, Any] = final["messages"][message_id]
    assert entry["data"]["author"]["username"] == "WizardBot"
    assert entry["data"]["timestamp"]
    (chart,) = [tmp_path / rel for rel in entry["files"].values()]
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # each person's ephemeral answers are theirs alone
    my_hand = by_name["my-hand"]
    private = my_hand["focus"]["messages"][0]
    owner = my_hand["focus"]["user"]
    assert my_hand["messages"][private]["ephemeral_to"] is not None
    for person, views in my_hand["views"].items():
        assert (private in views["ephemeral"]) == (person == owner)
    json.dumps(final)  # plain JSON all through


async def test_the_review_is_saved_at_its_summary_and_its_first_and_last_pages(tmp_path: Path) -> None:
    paths = await capture.run(review, tmp_path, rounds=4)
    snapshots = [render.load(p) for p in paths]
    assert [s["name"] for s in snapshots] == ["review-summary", "review-rounds-first", "review-rounds-last"]
    # One private message, turned page by page: each snapshot shows it as it was then.
    [message_id] = {s["focus"]["messages"][0] for s in snapshots}
    shown = [s["messages"][message_id]["data"] for s in snapshots]
    assert all(s["messages"][message_id]["ephemeral_to"] is not None for s in snapshots)
    assert len({json.dumps(data["components"]) for data in shown}) == 3
    for snapshot, path in zip(snapshots, paths, strict=True):
        ctx = render.context_for(snapshot, path.parent, twemoji())
        [message] = render.snapshot_messages(snapshot, path.parent, [message_id])
        drawn = parse(render.draw_message(message, ctx))
        assert appears_in_order(drawn.reading(), expected_reading(message.data, ctx.users)) == []
