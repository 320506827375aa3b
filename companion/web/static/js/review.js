// The game review on a phone, once the game is over: the progress ("Review 40 %"), then this
// seat's own part (frames.py sends each phone only its own): points of margin over the best
// other player lost per decision (the headline, in a common mix of decisions) beside the
// others' headlines, and its three costliest decisions with the better move, the reason in
// the phone's language and a link to that moment of the replay. A review stored by the older
// method (own points, raw mean) says so.
import { h } from "./dom.js";
import { chip, nameOf, oneDecimal as points, stationLabel } from "./format.js";
import { currentLanguage, t } from "./i18n.js";

/** A move of the review in words (the fields of a SCENARIO.md command, without the player). */
export function moveText(move, names = nameOf) {
  switch (move?.type) {
    case "bid":
      return Object.entries(move.bids || {})
        .map(([s, cards]) => `${s}: ${cards.join("+")}`)
        .join(" · ");
    case "sacrifice":
      return t("review.move_sacrifice", { card: move.card });
    case "dice":
      return t("review.move_dice", { count: move.count });
    case "city":
      return t(move.choice === "hut" ? "review.move_hut" : "review.move_die");
    case "pyramid":
      return t("review.move_pyramid", { name: names(move.first) });
    default:
      return "";
  }
}

function replayLink(review, worst, credentials) {
  if (worst.replay_step == null || !credentials) return null;
  const query = new URLSearchParams({
    seat: credentials.seat,
    token: credentials.token,
    step: String(worst.replay_step),
    lang: currentLanguage(), // the replay speaks the phone's language, not the table's
  });
  const href = `/t/${encodeURIComponent(credentials.table)}/games/${review.game_id}/replay?${query}`;
  return h(
    "a",
    { class: "review-replay button", href, target: "_blank", rel: "noopener", dataset: { testid: "review-replay" } },
    t("review.replay"),
  );
}

/** When a decision was made: its round (the sacrifice comes before round 1) and station. */
export function whenText(worst) {
  const round = worst.round ? t("review.round", { n: worst.round }) : t("round.before");
  return worst.station ? `${round} · ${stationLabel(worst.station)}` : round;
}

function decisionCard(review, worst, credentials) {
  const where = whenText(worst);
  const reason = worst.reasons?.[currentLanguage()] || worst.reasons?.en || "";
  return h(
    "li",
    { class: `review-decision ${worst.label}`, dataset: { testid: "review-decision" } },
    h("div", { class: "review-where" }, h("span", {}, where), h("span", { class: "review-loss num" }, t("review.lost", { n: points(worst.loss) }))),
    h("p", { class: "review-move" }, h("span", { class: "review-tag" }, t("review.made")), " ", moveText(worst.made)),
    h("p", { class: "review-move better" }, h("span", { class: "review-tag" }, t("review.better")), " ", moveText(worst.better)),
    h("p", { class: "review-reason" }, reason),
    replayLink(review, worst, credentials),
  );
}

/** A line saying the review was rated by the older method, or null. */
export function olderNote(review) {
  if (!review?.older) return null;
  return h("p", { class: "review-older", dataset: { testid: "review-older" } }, t("review.older"));
}

/** The review panel of the final screen, or null while there is none (the game is running). */
export function reviewPanel(frame, credentials) {
  const review = frame?.review;
  if (!review) return null;
  if (review.state === "working") {
    return h(
      "section",
      { class: "review", dataset: { testid: "game-review" } },
      h("p", { class: "review-progress", role: "status", dataset: { testid: "review-progress" } }, t("review.progress", { percent: review.progress })),
    );
  }
  if (review.state === "failed") {
    return h("section", { class: "review", dataset: { testid: "game-review" } }, h("p", { class: "review-progress" }, t("review.failed")));
  }
  const mine = review.mine;
  const others = (review.players || []).slice().sort((a, b) => a.mean_loss - b.mean_loss);
  return h(
    "section",
    { class: "review", dataset: { testid: "game-review" } },
    h("h2", {}, t("review.title")),
    olderNote(review),
    mine
      ? h(
          "p",
          { class: "review-accuracy", dataset: { testid: "review-accuracy" } },
          t("review.accuracy", { n: points(mine.mean_loss), decisions: mine.decisions }),
        )
      : null,
    h(
      "table",
      { class: "review-players", dataset: { testid: "review-players" } },
      h("caption", {}, t("review.per_decision")),
      others.map((p) =>
        h(
          "tr",
          { class: mine && p.seat === mine.seat ? "mine" : "" },
          h("th", { scope: "row" }, chip(p.seat)),
          h("td", { class: "num" }, points(p.mean_loss)),
        ),
      ),
    ),
    mine
      ? mine.worst.length
        ? [h("h3", {}, t("review.worst")), h("ol", { class: "review-decisions" }, mine.worst.map((w) => decisionCard(review, w, credentials)))]
        : h("p", {}, t("review.no_losses"))
      : null,
  );
}

/** The display's small progress line once the game is over ("Review 40 %"), or null. */
export function reviewStatus(frame) {
  const review = frame?.review;
  if (!review) return null;
  const text =
    review.state === "working"
      ? t("review.progress", { percent: review.progress })
      : review.state === "ready"
        ? t("review.ready_display")
        : t("review.failed");
  return h("span", { class: "badge review-status", role: "status", dataset: { testid: "review-status", state: review.state } }, text);
}
