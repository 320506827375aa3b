// Host page: has each finished game's result reached the café's webhooks? (PROTOCOL.md
// "Result webhooks"). Polls the table's results list; the outbox keeps retrying by itself.
import { byId, fill, h } from "./dom.js";
import { onLanguageChange, t } from "./i18n.js";

const list = byId("deliveries"); // in the same block of host.html as this script
const token = /** @type {string} */ (document.body.dataset.hostToken); // host.html always sets it
let last = null;

function render() {
  if (!last) return;
  if (!last.games.length) {
    fill(list, h("li", { class: "muted" }, t("host.delivery.none")));
    return;
  }
  fill(
    list,
    last.games.map((g) =>
      h(
        "li",
        { dataset: { game: g.game_id } },
        h("span", {}, `#${g.game_id} · ${t(`host.game_status.${g.status}`)}`),
        g.deliveries.map((d) =>
          h(
            "span",
            { class: `delivery delivery-${d.state}`, dataset: { state: d.state }, title: d.url },
            t(`host.delivery.${d.state}`, { attempts: d.attempts, error: d.last_error || "" }),
          ),
        ),
      ),
    ),
  );
}

async function poll() {
  try {
    const response = await fetch(`${list.dataset.url}?token=${encodeURIComponent(token)}`, { cache: "no-store" });
    if (response.ok) {
      last = await response.json();
      render();
    }
  } catch {
    // The server is restarting: the next poll catches up.
  }
  setTimeout(poll, 3000);
}

onLanguageChange(render);
poll();
