// A request that fails never fails silently: the message appears where the tap happened,
// and the form keeps what was typed or tapped, so trying again needs no retyping.
// Answers the server explains itself (409, 422) are swapped in by htmx as usual.
(function () {
  "use strict";

  function messageFor(kind, status) {
    const text = document.body.dataset[kind] || "";
    return text.replace("%(status)s", String(status));
  }

  function showError(event, text) {
    const source = event.detail.elt;
    const anchor = source.closest("form") || source;
    const container = anchor.parentElement || document.body;
    container.querySelectorAll(":scope > .request-error").forEach((old) => old.remove());
    const message = document.createElement("p");
    message.className = "error request-error";
    message.setAttribute("role", "alert");
    message.textContent = text;
    container.insertBefore(message, anchor);
  }

  document.addEventListener("htmx:responseError", (event) => {
    const status = event.detail.xhr.status;
    const kind = status === 403 ? "errorForbidden" : status >= 500 ? "errorServer" : "errorRequest";
    showError(event, messageFor(kind, status));
  });

  document.addEventListener("htmx:sendError", (event) => {
    showError(event, messageFor("errorOffline", 0));
  });

  // An invitation link is selected whole when tapped, ready to copy.
  document.addEventListener("focusin", (event) => {
    if (event.target.matches && event.target.matches("textarea.invitation-url")) {
      event.target.select();
    }
  });

  // A form that ends or abandons something asks first: its data-question is the question.
  document.addEventListener("submit", (event) => {
    const question = event.target.dataset && event.target.dataset.question;
    if (question && !window.confirm(question)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  // The score pad's number pad types into its display here, without asking the server (which
  // does the same for a browser without JavaScript: tracker.score_pad.apply_key).
  function applyKey(typed, key) {
    let negative = typed.startsWith("-");
    let digits = typed.replace(/^-/, "");
    if (key === "minus") {
      negative = !negative;
    } else if (key === "back") {
      digits = digits.slice(0, -1);
    } else if (/^[0-9]$/.test(key) && digits.length < 7) {
      digits = digits === "0" ? key : digits + key;
    }
    return (negative ? "-" : "") + digits;
  }

  document.addEventListener("click", (event) => {
    const key = event.target.closest && event.target.closest(".numpad button[name=key]");
    if (!key) {
      return;
    }
    event.preventDefault();
    const display = key.form.querySelector("input[name=points]");
    display.value = applyKey(display.value.trim(), key.value);
  });

  // With the number pad working, tapping its display brings up no on-screen keyboard over it.
  document.addEventListener("htmx:load", (event) => {
    const root = event.detail.elt;
    const displays = root.querySelectorAll ? root.querySelectorAll(".numpad-value") : [];
    displays.forEach((display) => { display.inputMode = "none"; });
  });

  document.addEventListener("htmx:beforeRequest", (event) => {
    const anchor = event.detail.elt.closest("form") || event.detail.elt;
    const container = anchor.parentElement;
    if (container) {
      container.querySelectorAll(":scope > .request-error").forEach((old) => old.remove());
    }
  });

  // A scoreboard follows the game: it asks every half second whether anything changed,
  // naming the state it shows, and the server answers 304 until something did. When the
  // server cannot be reached the board says since when, and greys out the scores.
  function followBoard() {
    let failingSince = null;
    function board() { return document.getElementById("board"); }
    function showStale(current, text) {
      current.classList.add("stale");
      current.querySelector(".board-stale").textContent = text;
    }
    async function ask() {
      const current = board();
      if (!current || document.hidden) {
        return;
      }
      try {
        const response = await fetch(current.dataset.follow, {
          headers: {"HX-Request": "true", "If-None-Match": current.dataset.etag},
          cache: "no-store", credentials: "same-origin",
        });
        if (response.status === 200) {
          current.outerHTML = await response.text();
        } else if (response.status === 404) {
          showStale(current, current.dataset.closed);
          return "closed";
        } else if (response.status !== 304) {
          throw new Error(String(response.status));
        }
        failingSince = null;
        board().classList.remove("stale");
      } catch (error) {
        failingSince = failingSince || new Date();
        const time = failingSince.toLocaleTimeString(document.documentElement.lang,
          {hour: "2-digit", minute: "2-digit"});
        showStale(current, current.dataset.stale.replace("%(time)s", time));
      }
    }
    async function loop() {
      const every = Number(board().dataset.every) || 1000;
      if (await ask() !== "closed") {
        window.setTimeout(loop, every);
      }
    }
    document.addEventListener("visibilitychange", () => { if (!document.hidden) { ask(); } });
    window.setTimeout(loop, Number(board().dataset.every) || 1000);
  }

  // The offline page opens the app again by itself once the server answers.
  function waitForServer() {
    const health = document.body.dataset.health;
    window.setInterval(async () => {
      try {
        const response = await fetch(health, {cache: "no-store"});
        if (response.ok) {
          window.location.reload();
        }
      } catch (error) {
        // Still no connection: ask again on the next round.
      }
    }, 3000);
  }

  // During a game the screen stays on (the Screen Wake Lock API, where the browser has it),
  // asked for again whenever the page is shown: the browser lets go of it when the tab is
  // hidden. The switch lets the screen sleep; the choice is remembered on the device.
  let wakeLock = null;
  const keepAwakeWanted = () => localStorage.getItem("keep-awake") !== "off";

  function showKeepAwake() {
    const button = document.querySelector(".keep-awake");
    if (!button || !("wakeLock" in navigator)) return;
    const on = keepAwakeWanted();
    button.hidden = false;
    button.setAttribute("aria-pressed", String(on));
    button.querySelector(".keep-awake-label").textContent = on ? button.dataset.on
                                                               : button.dataset.off;
  }

  async function keepAwake() {
    showKeepAwake();
    if (!document.querySelector(".keep-awake") || !("wakeLock" in navigator)) return;
    if (!keepAwakeWanted() || document.visibilityState !== "visible") return;
    if (wakeLock && !wakeLock.released) return;
    try {
      wakeLock = await navigator.wakeLock.request("screen");
    } catch (refused) {
      wakeLock = null;  // low battery or a browser setting: the screen sleeps as usual
    }
  }

  document.addEventListener("click", (event) => {
    if (!event.target.closest || !event.target.closest(".keep-awake")) return;
    localStorage.setItem("keep-awake", keepAwakeWanted() ? "off" : "on");
    if (!keepAwakeWanted() && wakeLock) {
      wakeLock.release();
      wakeLock = null;
    }
    keepAwake();
  });
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("htmx:afterSettle", keepAwake);

  document.addEventListener("DOMContentLoaded", () => {
    keepAwake();
    if (document.getElementById("board") && document.getElementById("board").dataset.follow) {
      followBoard();
    }
    if (document.body.classList.contains("offline-page")) {
      waitForServer();
    }
    // The service worker needs a secure origin (HTTPS, or this computer itself).
    const worker = document.body.dataset.serviceWorker;
    if (worker && "serviceWorker" in navigator && window.isSecureContext) {
      navigator.serviceWorker.register(worker, {scope: "/"}).catch(() => {
        // Without it the app works as before, only not offline: nothing to tell the user.
      });
    }
  });
})();
