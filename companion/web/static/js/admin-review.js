// The café admin's reviews: each game of the history shows its stored review, its progress,
// or a button that asks for one (a job in the companion players' low-priority pool).
import { byId, fill, h } from "./dom.js";
import { currentLanguage, t } from "./i18n.js";
import { moveText, olderNote, whenText } from "./review.js";
import { oneDecimal as points } from "./texts.js";

async function show(game, headers) {
  const response = await fetch(`/admin/api/games/${game.game_id}/review`, { headers, cache: "no-store" });
  const body = await response.json();
  if (!response.ok || body.state !== "ready") return;
  const lang = currentLanguage();
  const nameOf = (seat) => body.names[seat] || seat;
  const players = Object.entries(body.review.players).sort((a, b) => a[1].mean_loss - b[1].mean_loss);
  fill(
    "admin-review",
    h("h3", {}, `${game.table.title} · #${game.game_id}`),
    olderNote(body),
    h(
      "table",
      { class: "admin-table", dataset: { testid: "admin-review" } },
      h("caption", {}, t("review.per_decision")),
      players.map(([seat, p]) =>
        h(
          "tr",
          { dataset: { player: seat } },
          h("th", { scope: "row" }, body.names[seat] || seat),
          h("td", { class: "num" }, points(p.mean_loss)),
          h(
            "td",
            {},
            p.worst.map((w) =>
              h(
                "p",
                { class: "review-line" },
                `${whenText(w)}: ${t("review.lost", { n: points(w.loss) })} · ${t("review.made")} ${moveText(w.made, nameOf)} · ${t("review.better")} ${moveText(w.better, nameOf)} · ${w.reasons?.[lang] || w.reason}`,
              ),
            ),
          ),
        ),
      ),
    ),
  );
  byId("admin-review").scrollIntoView({ block: "nearest" });
}

async function ask(game, headers, refresh) {
  await fetch(`/admin/api/games/${game.game_id}/review`, { method: "POST", headers });
  refresh();
}

/** The review's part of a history row's actions. ``refresh`` reloads the history. */
export function reviewAction(game, headers, refresh) {
  const review = game.review;
  if (review?.state === "ready") {
    return h("button", { class: "review-show", dataset: { testid: "review-show" }, onclick: () => show(game, headers) }, t("review.show"));
  }
  if (review?.state === "working") {
    setTimeout(refresh, 2000); // the progress moves on in the pool
    return h("span", { class: "review-progress", dataset: { testid: "review-progress" } }, t("review.progress", { percent: review.progress }));
  }
  if (review?.state === "queued") {
    setTimeout(refresh, 5000); // waits behind older games (reviewed one at a time)
    return h("span", { class: "review-progress", dataset: { testid: "review-queued" } }, t("review.queued"));
  }
  // No review, or one that cannot be read (asking again reviews the game anew).
  const label = review?.state === "damaged" ? t("review.damaged") : t("review.ask");
  return h("button", { class: "review-ask", dataset: { testid: "review-ask" }, title: review?.reason || "", onclick: () => ask(game, headers, refresh) }, label);
}
