// A request that fails never fails silently: the message appears where the tap happened,
// and the form keeps what was typed or tapped, so trying again needs no retyping.
// Answers the server explains itself (409, 422) are swapped in by htmx as usual.
(function () {
  "use strict";

  // This device's CSRF token, which every request of the page sends.
  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (damaged) {
      return "";
    }
  }

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

  // A request with no answer in time (see editorRequests) counts as one that could not be sent.
  ["htmx:sendError", "htmx:timeout"].forEach((type) => document.addEventListener(type, (event) => {
    if (!outbox.keptAfterSendError(event) && !openOfflineEditor(event)) {
      showError(event, messageFor("errorOffline", 0));
    }
  }));

  // A cell tapped while the server cannot be reached opens a plain editor for the points,
  // made on the device: what is saved there waits in the outbox like any other entry.
  function openOfflineEditor(event) {
    const cell = event.detail.elt.closest && event.detail.elt.closest("[data-offline-editor]");
    const target = event.detail.requestConfig && event.detail.requestConfig.target;
    const template = document.getElementById("offline-editor");
    if (!cell || !target || !template) return false;
    const editor = template.content.cloneNode(true);
    editor.querySelector(".offline-editor-title").textContent = cell.getAttribute("aria-label");
    const form = editor.querySelector("form");
    form.action = cell.getAttribute("href");
    form.setAttribute("hx-post", cell.getAttribute("href"));
    form.setAttribute("hx-target", "#" + target.id);
    form.dataset.entryMark = "[data-offline-editor][href='" + cell.getAttribute("href") + "']";
    form.querySelector("input[name=version]").value = cell.dataset.version || "";
    // What the cell shows: points waiting on this device, else what the server stored.
    const seen = cell.dataset.waiting !== undefined ? cell.dataset.waiting : cell.dataset.seen;
    if (seen === undefined) {
      form.querySelector("input[name=seen]").remove();
    } else {
      form.querySelector("input[name=seen]").value = seen;
    }
    target.classList.remove("empty");
    target.replaceChildren(editor);
    htmx.process(target);
    target.querySelector("input[name=points]").focus();
    return true;
  }

  // htmx takes up what it swapped in (its links and forms) only as the swap settles, a moment
  // later, and longer on a busy tablet. A tap in that moment would follow the cell's link or
  // send the form as a page load, and what is typed meanwhile would go with the old page: so
  // what is tapped there is taken up first.
  function takeUp(element) {
    const added = element && element.closest && element.closest(".htmx-added");
    if (added) htmx.process(added);
  }
  ["click", "submit"].forEach((type) => {
    document.addEventListener(type, (event) => takeUp(event.target), true);
  });

  // The cell (a link htmx follows) that asks for ``address``, as the page shows it now.
  function cellAsking(address) {
    return document.querySelector(`[hx-get="${CSS.escape(address)}"]`);
  }

  // A form names the household its page showed (htmx sends the same as X-Household): another
  // tab of this browser may have switched the device meanwhile, and what is entered here
  // belongs to the household it was entered in.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    const shown = document.body.dataset.household;
    if (!shown || !(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post") return;
    let field = form.querySelector("input[name=shown_household]");
    if (!field) {
      field = document.createElement("input");
      field.type = "hidden";
      field.name = "shown_household";
      form.appendChild(field);
    }
    field.value = shown;
  }, true);

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

  // ---- The Kniffel editor asks one thing at a time -------------------------------------
  // The Kniffel editor (#editor: the dice and the fields of the cell tapped) comes from the
  // server, with at most one request on its way. The last cell tapped meanwhile is asked for
  // once that answer is in, so every answer lands on the editor it was asked for and a save's
  // changes to the sheet all arrive; meanwhile the editor's own forms send
  // nothing (they are about to be replaced). An answer that does not come within
  // data-answer-within milliseconds ends the wait: the entry then waits on the device as
  // when the Wi-Fi is down.
  const editorRequests = (function () {
    let underWay = false;
    const later = [];  // cells tapped meanwhile, asked for in order

    function answerWithin() { return Number(document.body.dataset.answerWithin) || 10000; }

    function isEditor(target) { return Boolean(target && target.id === "editor"); }

    function answered(xhr) {
      underWay = false;
      const editor = document.getElementById("editor");
      if (editor) editor.removeAttribute("aria-busy");
      const refused = xhr.status === 409 || xhr.status === 422
        || Boolean(xhr.getResponseHeader("HX-Retarget"));
      const cells = later.splice(0);
      cells.forEach((cell) => cell.classList.remove("asked"));
      const last = cells.pop();
      if (!last || refused) return;  // a refusal is looked at first
      // The very cell, or the one the answer put in its place.
      const address = last.getAttribute("hx-get");
      const again = last.isConnected ? last : cellAsking(address);
      if (again) {
        htmx.ajax("GET", address, {source: again, target: "#editor", swap: "outerHTML"})
          .catch(() => {});  // told by htmx's own error events
      }
    }

    // An editor asked for before the editor was last closed does not open after it: its
    // answer is late (the close asked for after it was answered first).
    let closes = 0;
    document.addEventListener("htmx:beforeSwap", (event) => {
      const xhr = event.detail.xhr;
      if (isEditor(event.detail.target) && xhr && xhr.closesBefore < closes) {
        event.detail.shouldSwap = false;
      }
    });

    document.addEventListener("htmx:beforeRequest", (event) => {
      const xhr = event.detail.xhr;
      if (!isEditor(event.detail.target) || !xhr) return;
      if (event.detail.elt.matches && event.detail.elt.matches("#editor a.close")) closes += 1;
      xhr.closesBefore = closes;
      if (underWay) {
        if (event.detail.requestConfig.verb !== "get") return;
        event.preventDefault();
        event.detail.elt.classList.add("asked");
        later.push(event.detail.elt);
        return;
      }
      underWay = true;
      document.getElementById("editor").setAttribute("aria-busy", "true");
      xhr.timeout = answerWithin();
      xhr.addEventListener("loadend", () => answered(xhr));
    });

    // A form of the editor sends nothing while it waits: it is about to be replaced.
    document.addEventListener("submit", (event) => {
      const form = event.target;
      if (underWay && form.closest && form.closest("#editor")
          && form.getAttribute("hx-target") === "#editor") {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    }, true);

    return {waiting: () => underWay || later.length > 0};
  })();

  document.addEventListener("htmx:beforeRequest", (event) => {
    const anchor = event.detail.elt.closest("form") || event.detail.elt;
    const container = anchor.parentElement;
    if (container) {
      container.querySelectorAll(":scope > .request-error").forEach((old) => old.remove());
    }
  });

  // A scoreboard follows the game: told of a change (live.js), it shows the new content that
  // came with it, or asks for it naming the state it shows (304: nothing it shows changed). When
  // the server cannot be reached the board says since when, and greys out the scores.
  function followBoard() {
    let failingSince = null;
    let closed = false;  // the link was revoked: the board stays greyed out
    function board() { return document.getElementById("board"); }
    function showStale(current, text) {
      current.classList.add("stale");
      current.querySelector(".board-stale").textContent = text;
    }
    async function ask() {
      const current = board();
      const response = await fetch(current.dataset.follow, {
        headers: {"HX-Request": "true", "If-None-Match": current.dataset.etag},
        cache: "no-store", credentials: "same-origin",
      });
      if (response.status === 200) {
        show(await response.text());
      } else if (response.status === 404) {
        closed = true;
        showStale(current, current.dataset.closed);
      } else if (response.status !== 304) {
        return false;
      }
      return true;
    }
    function reachable(answered) {
      const current = board();
      if (closed) return;
      if (answered) {
        failingSince = null;
        current.classList.remove("stale");
        return;
      }
      failingSince = failingSince || new Date();
      const time = failingSince.toLocaleTimeString(document.documentElement.lang,
        {hour: "2-digit", minute: "2-digit"});
      showStale(current, current.dataset.stale.replace("%(time)s", time));
    }
    function show(content) {
      const fresh = new DOMParser().parseFromString(content, "text/html").getElementById("board");
      if (fresh) window.scorekeeperLive.morph(board(), fresh);
    }
    function changed(content) {
      if (content) {
        show(content);
        return;
      }
      ask().then(reachable, () => reachable(false));
    }
    window.scorekeeperLive.follow(board, {changed, ask, reachable});
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
    button.dataset.deviceAttributes = "hidden aria-pressed";  // kept by live.js's morph
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

  // ---- Refused entries ------------------------------------------------------------------
  // Why an entry was not stored (another tablet saved the same cell first) is shown where it
  // was made, with both numbers, and stays there through the follower's swaps until the
  // person on this device dismisses it or enters again.
  function dismiss(refusal) {
    refusal.replaceChildren();
    refusal.removeAttribute("data-refusal");
  }

  function dismissRefusals() {
    document.querySelectorAll("[data-refusal]").forEach(dismiss);
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-dismiss-refusal]");
    if (!button) return;
    const editor = button.closest("form");
    const slot = button.closest("[data-refusal]");
    // One refusal of several gathered in a slot goes alone.
    if (slot.querySelectorAll(".refusal").length > 1) {
      button.closest(".refusal").remove();
      slot.querySelector("[data-dismiss-refusal]").focus();
      return;
    }
    dismiss(slot);
    // The focus goes where the number would be entered again, not to the page's top.
    const again = (editor || document).querySelector("#pad-editor input[name=points], "
                                                     + "form input[name=points]");
    if (again) again.focus();
  });

  // ---- Entries that wait: the outbox --------------------------------------------------
  // An entry (a cell, a round, a tap on a result form: whatever carries data-entry) goes to
  // the server with a key of its own. It is written to the device's storage before it is
  // sent and taken out when the server has answered, so a dropped connection, a reload or
  // a closed tab loses nothing. While entries wait, new ones queue behind them, and all are
  // sent in order when the server can be reached again. The server applies each key once:
  // an entry sent twice (its answer was lost, or a double tap) counts once.
  const outbox = (function () {
    // Each account's entries apart: a tablet passed to someone else sends nothing in their name.
    const STORE = "scorekeeper-outbox-" + (document.body.dataset.user || "");
    let sending = false;
    let retry = null;
    let failedSince = null;
    let notice = "";  // an entry refused on arrival, said for NOTICE_MS in the bar
    let noticeUntil = 0;
    const NOTICE_MS = 20000;

    function load() {
      try {
        return JSON.parse(localStorage.getItem(STORE) || "[]");
      } catch (damaged) {
        return [];
      }
    }
    function save(entries) { localStorage.setItem(STORE, JSON.stringify(entries)); }
    function waiting() { return load().filter((entry) => entry.waiting); }
    function remove(key) { save(load().filter((entry) => entry.key !== key)); }
    // Entries are sent from whatever page is open; what they mark and what they answer
    // belongs on the page they were made on (another play's sheet has cells of the same names).
    function madeHere(entry) { return !entry.page || entry.page === window.location.pathname; }

    function newKey() {
      const bytes = new Uint8Array(18);
      crypto.getRandomValues(bytes);  // randomUUID needs HTTPS; the home network has HTTP
      return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    }

    function entryElement(detail) {
      const submitter = detail.triggeringEvent && detail.triggeringEvent.submitter;
      return (submitter && submitter.closest("[data-entry]")) || detail.elt.closest("[data-entry]");
    }

    // What an entry marks while it waits: the cell it fills shows the points with an hourglass.
    function markOf(element, detail) {
      const holder = element.closest("[data-entry-mark]");
      if (!holder) return {};
      const submitter = detail.triggeringEvent && detail.triggeringEvent.submitter;
      const typed = holder.querySelector("input[name=points]");
      const text = (submitter && submitter.dataset.entryText) || (typed && typed.value) || "";
      return {mark: holder.dataset.entryMark, text: text.trim()};
    }

    function showMarks() {
      document.querySelectorAll(".waiting[data-waiting]").forEach((old) => {
        old.classList.remove("waiting");
        old.removeAttribute("data-waiting");
      });
      waiting().filter(madeHere).forEach((entry) => {
        let marked = entry.mark && document.querySelector(entry.mark);
        // A round entered on this device beyond the rows the server drew: draw its row.
        while (!marked && onThisPad(entry.mark) && addPadRound()) {
          marked = document.querySelector(entry.mark);
        }
        if (marked) {
          marked.classList.add("waiting");
          marked.dataset.waiting = entry.text || "…";
        }
      });
      const rows = document.querySelectorAll("#pad-rounds tr");
      const last = rows[rows.length - 1];
      if (last && last.querySelector(".pad-cell.waiting")) addPadRound();
    }

    // Whether an entry's mark is a cell of the score pad on this page.
    function onThisPad(mark) {
      const cell = document.querySelector("#pad-rounds .pad-cell");
      const pad = cell && cell.getAttribute("href").replace(/rounds\/.*$/, "rounds/");
      return Boolean(mark && pad && mark.includes("'" + pad));
    }

    // The score pad always offers the round after the last one entered: offline, this
    // device draws that row itself (a copy of the last row, blank, numbered one more), so a
    // game goes on for as many rounds as it needs while the entries wait.
    function addPadRound() {
      const rounds = document.getElementById("pad-rounds");
      const rows = rounds ? rounds.querySelectorAll("tr") : [];
      const last = rows[rows.length - 1];
      // Only a pad under way offers a next round (the server draws it as new-round).
      if (!last || !last.classList.contains("new-round")
          || !last.querySelector(".pad-cell:not(.blank), .pad-cell.waiting")) return false;
      const number = Number(last.querySelector("th").textContent) + 1;
      const row = last.cloneNode(true);
      row.className = "new-round";
      row.querySelector("th").textContent = String(number);
      row.querySelectorAll(".pad-cell").forEach((cell) => {
        const url = cell.getAttribute("href").replace(/\/rounds\/\d+\//, "/rounds/" + number + "/");
        cell.setAttribute("href", url);
        cell.className = "pad-cell blank";
        cell.removeAttribute("data-waiting");
        cell.dataset.seen = "";
        cell.dataset.typed = "";
        cell.textContent = "+";
        cell.setAttribute("aria-label", cell.dataset.labelNext.replace("__round__", String(number)));
        cell.dataset.name = cell.dataset.nameNext.replace("__round__", String(number));
      });
      rounds.appendChild(row);
      return true;
    }

    // The bar: ``message`` for now (or, ``lasting``, for a while), else since when the
    // server cannot be reached; and how many entries wait.
    function showConnection(message, lasting) {
      if (lasting) {
        notice = message;
        noticeUntil = Date.now() + NOTICE_MS;
      }
      const count = waiting().length;
      const body = document.body.dataset;
      document.querySelectorAll(".offline-waiting").forEach((line) => {
        // The offline page knows no account: it counts what waits for any of them.
        const all = Object.keys(localStorage).filter((name) => name.startsWith("scorekeeper-outbox-"))
          .reduce((sum, name) => sum + JSON.parse(localStorage.getItem(name) || "[]").length, 0);
        line.hidden = !all;
        line.textContent = body.entriesWaiting.replace("%(count)s", String(all));
      });
      const bar = document.getElementById("connection");
      if (!bar) return;
      let text = message || (Date.now() < noticeUntil ? notice : "");
      if (!text && failedSince) {
        const time = failedSince.toLocaleTimeString(document.documentElement.lang,
          {hour: "2-digit", minute: "2-digit"});
        text = body.offlineSince.replace("%(time)s", time);
      }
      bar.querySelector(".connection-text").textContent = text;
      bar.querySelector(".connection-waiting").textContent =
        count ? body.entriesWaiting.replace("%(count)s", String(count)) : "";
      bar.classList.toggle("offline", Boolean(failedSince));
      bar.hidden = !text && !count;
      showMarks();
    }

    function reachable(answered) {
      if (answered) {
        if (failedSince) {
          failedSince = null;
          send();
        }
      } else if (!failedSince) {
        failedSince = new Date();
      }
      showConnection();
    }

    // An editor whose entry is kept on the device closes, as it does when the entry is saved;
    // one that has moved on to another cell (the number pad) stays as it is.
    function closeEditor(target, sender) {
      if (target && target.matches("[data-follow-keep]") && target.contains(sender)) {
        target.classList.add("empty");
        target.replaceChildren();
        const note = document.createElement("p");
        note.className = "muted";
        note.textContent = document.body.dataset.entryKept;
        target.appendChild(note);
      }
    }

    // A result form sends only the fields typed into on this tablet since it was drawn: the
    // server keeps the others as stored, so nothing another tablet typed meanwhile is blanked.
    function sendOnlyWhatChanged(detail) {
      const form = detail.elt.closest("form.entry");
      if (!form) return;
      const unchanged = new Set();
      const changed = new Set();
      form.querySelectorAll("input, select, textarea").forEach((control) => {
        if (!control.name || ["hidden", "submit", "button"].includes(control.type)) return;
        const same = ["radio", "checkbox"].includes(control.type)
          ? control.checked === control.defaultChecked
          : control.value === control.defaultValue;
        (same ? unchanged : changed).add(control.name);
      });
      unchanged.forEach((name) => { if (!changed.has(name)) detail.formData.delete(name); });
    }

    document.addEventListener("htmx:configRequest", (event) => {
      const detail = event.detail;
      const element = detail.verb === "post" && entryElement(detail);
      if (!element || document.body.classList.contains("offline-page")) return;
      dismissRefusals();  // entered again: the refusal was seen
      sendOnlyWhatChanged(detail);
      const key = newKey();
      detail.headers["Idempotency-Key"] = key;
      const headers = {};
      Object.entries(detail.headers).forEach(([name, value]) => {
        if (name.startsWith("HX-") && name !== "HX-Prompt" && value != null) headers[name] = value;
      });
      const entry = Object.assign({
        key, url: detail.path, body: new URLSearchParams(detail.formData).toString(), headers,
        target: detail.target && detail.target.id ? "#" + detail.target.id : "",
        page: window.location.pathname, waiting: waiting().length > 0,
      }, markOf(element, detail));
      save([...load(), entry]);
      if (entry.waiting) {
        countAsDrawn(element, detail.formData);
        event.preventDefault();  // entries go in order: this one waits behind the others
        closeEditor(detail.target, detail.elt);
        showConnection();
        send();
      }
    });

    document.addEventListener("htmx:afterRequest", (event) => {
      const key = event.detail.requestConfig && event.detail.requestConfig.headers["Idempotency-Key"];
      if (key && event.detail.xhr && event.detail.xhr.status !== 0) {
        remove(key);
        reachable(true);
        send();  // anything that queued behind it
      }
    });

    // Called for a request that got no answer: true when it was an entry, now kept.
    function keptAfterSendError(event) {
      const config = event.detail.requestConfig;
      const key = config && config.headers["Idempotency-Key"];
      if (!key) return false;
      save(load().map((entry) => (entry.key === key ? Object.assign(entry, {waiting: true})
                                                     : entry)));
      countAsDrawn(event.detail.elt, config.formData);
      closeEditor(config.target, event.detail.elt);
      reachable(false);
      window.clearTimeout(retry);
      retry = window.setTimeout(send, 3000);
      return true;
    }

    // An entry the server refused on arrival (a conflict with another tablet, an impossible
    // result) shows the server's answer where the entry was made, and its message in the bar
    // for a while: the page goes on following the game meanwhile.
    // One made on another page (left before its answer came) is said in the bar only: its
    // answer would replace this page's form with that page's.
    function showRefusal(entry, response, html) {
      const where = response.headers.get("HX-Retarget") || entry.target;
      const target = madeHere(entry) && where && document.querySelector(where);
      // Several entries refused one after the other each redraw the pad: the refusals shown
      // before this one stay, gathered in the page's first refusal slot.
      const earlier = Array.from(document.querySelectorAll("[data-refusal] .refusal"));
      if (target && html) {
        htmx.swap(target, html, {swapStyle: response.headers.get("HX-Reswap") || "outerHTML"});
      }
      keepRefusals(earlier);
      const parsed = new DOMParser().parseFromString(html || "", "text/html");
      const alert = parsed.querySelector(".refusal p, [role=alert]");
      const reason = alert ? alert.textContent.trim() : "";
      const said = madeHere(entry) ? document.body.dataset.entryRefused
        : document.body.dataset.entryRefusedElsewhere;
      showConnection(said + " " + reason, true);
    }

    function keepRefusals(earlier) {
      const slot = document.querySelector(".refusal-slot");
      if (!slot) return;
      const shown = new Set(Array.from(document.querySelectorAll("[data-refusal] .refusal p"),
                                       (text) => text.textContent));
      earlier.forEach((refusal) => {
        const text = refusal.querySelector("p");
        if (!text || shown.has(text.textContent)) return;
        slot.appendChild(refusal);
        slot.setAttribute("data-refusal", "");
        shown.add(text.textContent);
      });
    }

    async function send() {
      if (sending || document.body.classList.contains("offline-page")) return;
      const entries = load();
      if (!entries.length) return;
      sending = true;
      showConnection(document.body.dataset.entriesSending);
      let redirect = null;
      let stalled = false;
      try {
        for (const entry of entries) {
          if (!entry.waiting) break;  // on its way from this page: the rest go after it
          const response = await fetch(entry.url, {
            method: "POST", body: entry.body, credentials: "same-origin", cache: "no-store",
            redirect: "manual",
            headers: Object.assign({}, entry.headers, {
              "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8",
              "X-CSRFToken": csrfToken(), "HX-Request": "true", "Idempotency-Key": entry.key,
            }),
          });
          if (response.status >= 500) throw new Error(String(response.status));
          if (response.type === "opaqueredirect" || [401, 403].includes(response.status)) {
            // The login ran out, or the page's token is old: the entry waits for a new login.
            showConnection(document.body.dataset.errorForbidden, true);
            stalled = true;
            break;
          }
          remove(entry.key);
          window.scorekeeperLive.serverAnswered();
          redirect = response.headers.get("HX-Redirect") || redirect;
          if (response.status >= 400) showRefusal(entry, response, await response.text());
        }
        failedSince = null;
      } catch (unreachable) {
        failedSince = failedSince || new Date();
        window.clearTimeout(retry);
        retry = window.setTimeout(send, 3000);
      } finally {
        sending = false;
      }
      if (!failedSince && !stalled && waiting().length) {
        send();  // entries made while these were being sent
        return;
      }
      if (!stalled) showConnection();
      if (!failedSince && !stalled && !load().length) {
        if (redirect) {
          window.location.assign(redirect);
        } else {
          follower.refresh();
        }
      }
    }

    // After a reload the page that sent an entry is gone, and with it the answer: every
    // entry left in the store waits to be sent (again: its key makes that safe).
    function resume() {
      save(load().map((entry) => Object.assign(entry, {waiting: true})));
      showConnection();
      send();
    }

    window.addEventListener("online", send);
    return {keptAfterSendError, reachable, resume, send, showMarks, waiting};
  })();

  // ---- Pages that follow the other devices ---------------------------------------------
  // A page where a game is entered or watched names the state it shows (data-state on
  // <main>) and is told when it changed (live.js). It then reads itself again and swaps in
  // each region (data-follow-region) — unless this device is in the middle of something
  // there: a field being typed in, a form changed and not sent, a request under way, entries
  // waiting, a finger down. Those regions are read again a moment later. An open editor
  // (data-follow-keep, not empty) stays as it is inside the new region.
  const follower = (function () {
    const BUSY_RETRY = 1500;  // a region this device is busy in is read again after this
    let readAgain = null;
    let reading = false;
    let toldMeanwhile = null;
    // Counts this page's own requests and swaps: a page read before one of them is older
    // than what the page shows since, and is not swapped in. changesRead: the count when the
    // page was last read.
    let ownChanges = 0;
    let changesRead = 0;
    // Where the shared page has each visitor's CSRF token (CSRF_SLOT in tracker/table/sheet.py).
    const TOKEN_SLOT = "csrf-slot-of-the-shared-sheet";
    document.addEventListener("htmx:beforeRequest", () => { ownChanges += 1; });
    document.addEventListener("htmx:afterSwap", () => { ownChanges += 1; });

    // A region swapped between a finger's down and up would take the tap with it: the browser
    // clicks only where both touched the same element, and the element it went down on has
    // left the page. So nothing is swapped while a finger (or the mouse button) is down.
    let pressed = false;
    let released = null;
    document.addEventListener("pointerdown", () => {
      window.clearTimeout(released);
      pressed = true;
    }, true);
    ["pointerup", "pointercancel"].forEach((type) => document.addEventListener(type, () => {
      released = window.setTimeout(() => { pressed = false; }, 50);  // after the click
    }, true));

    const FOCUSABLE = "a[href], button, input:not([type=hidden]), select, textarea, [tabindex]";

    function main() { return document.getElementById("main"); }

    // An open editor is kept as it is (see swapRegion): what is typed there holds nothing up.
    // One that opens by itself (the score pad's number pad after a save, data-follow-keep=
    // "typed") is kept only once something is typed into it; until then it moves on with the
    // game. A number pad opened by a tap is kept like any editor.
    function inUse(keeper) {
      if (keeper.classList.contains("empty")) return false;
      // A refusal inside is kept with its editor until it is dismissed or entered again.
      if (keeper.dataset.followKeep !== "typed" || keeper.querySelector("[data-refusal]")) {
        return true;
      }
      return Array.from(keeper.querySelectorAll("input:not([type=hidden])"))
        .some((input) => input.value !== "");
    }

    function kept(element) {
      const keeper = element.closest("[data-follow-keep]");
      return Boolean(keeper) && inUse(keeper);
    }

    function changedControls(region) {
      return Array.from(region.querySelectorAll("input, select, textarea")).some((control) => {
        if (control.type === "hidden" || control.type === "submit" || kept(control)) return false;
        if (control.type === "checkbox" || control.type === "radio") {
          return control.checked !== control.defaultChecked;
        }
        if (control.tagName === "SELECT") {
          return Array.from(control.options).some((o) => o.selected !== o.defaultSelected);
        }
        return control.value !== control.defaultValue;
      });
    }

    function busy(region) {
      const active = document.activeElement;
      const typing = active && region.contains(active) && !kept(active)
        && active.matches("input, select, textarea")
        && !["hidden", "submit", "button", "radio", "checkbox"].includes(active.type);
      const requesting = Array.from(region.querySelectorAll(".htmx-request"))
        .some((element) => !kept(element));
      // A correction under way (data-follow-hold) is a form the page's address does not show.
      return pressed || typing || changedControls(region) || requesting
        || region.classList.contains("htmx-request") || outbox.waiting().length > 0
        || editorRequests.waiting()
        || region.querySelector("[data-follow-hold]") !== null;
    }

    function swapRegion(region, fresh) {
      // The focus stays where it was: in a kept editor on the very control; elsewhere on the
      // same cell or control.
      const active = region.contains(document.activeElement) ? document.activeElement : null;
      const holder = active ? active.closest("[id]") : null;
      // A refusal stays where it was shown until it is dismissed or an entry is made again;
      // an editor in use stays as it is.
      const kept = [
        ...region.querySelectorAll("[data-refusal][id]"),
        ...Array.from(region.querySelectorAll("[data-follow-keep][id]")).filter(inUse),
      ];
      const keepers = kept.filter((keeper) => !kept.some((outer) => outer !== keeper
                                                              && outer.contains(keeper)));
      keepers.forEach((keeper) => {
        const slot = fresh.querySelector("#" + CSS.escape(keeper.id));
        if (slot) slot.replaceWith(keeper.cloneNode(true));
      });
      region.querySelectorAll("details[id][open]").forEach((open) => {
        const again = fresh.querySelector("#" + CSS.escape(open.id));
        if (again) again.open = true;
      });
      window.scorekeeperLive.morph(region, fresh);
      keepers.forEach((keeper) => {
        const copy = keeper.isConnected ? null : document.getElementById(keeper.id);
        if (copy) copy.replaceWith(keeper);
      });
      if (!active || document.activeElement === active) return;
      const again = active.isConnected ? active : holder && document.getElementById(holder.id);
      const control = again && (again.matches(FOCUSABLE) ? again : again.querySelector(FOCUSABLE));
      if (control) control.focus({preventScroll: true});
    }

    // Read the page again, or show the page that came with the change (content: the page
    // every device on a game in progress is shown, tracker/table/shared_pages.py); a
    // change told meanwhile is shown once this one is.
    async function refresh(content) {
      if (reading) {
        toldMeanwhile = {content};
        return;
      }
      reading = true;
      try {
        await read(content);
      } finally {
        reading = false;
      }
      if (toldMeanwhile) {
        const told = toldMeanwhile;
        toldMeanwhile = null;
        refresh(told.content);
      }
    }

    function readLater() {
      window.clearTimeout(readAgain);
      readAgain = window.setTimeout(refresh, BUSY_RETRY);
    }

    // The page as the server shows it now. A page that came with a change is shown as it
    // came (with this device's CSRF token put in) unless this device changed something since
    // it last read the page: the stream may have rendered it before that change was stored.
    async function latestPage(content) {
      const changesBefore = ownChanges;
      if (content !== undefined && changesBefore === changesRead) {
        return content.split(TOKEN_SLOT).join(csrfToken());
      }
      const response = await fetch(window.location.href, {
        cache: "no-store", credentials: "same-origin",
      });
      if (!response.ok) return null;
      const text = await response.text();
      if (ownChanges !== changesBefore) {
        readLater();  // older than what this device changed meanwhile
        return null;
      }
      changesRead = changesBefore;
      return text;
    }

    async function read(content) {
      const current = main();
      if (!current || !current.dataset.follow) return;
      const text = await latestPage(content);
      if (text === null) return;
      const page = new DOMParser().parseFromString(text, "text/html");
      const fresh = page.getElementById("main");
      if (!fresh || !fresh.dataset.state) return;
      let waited = false;
      current.querySelectorAll("[data-follow-region][id]").forEach((region) => {
        const replacement = page.getElementById(region.id);
        if (!replacement) return;
        if (busy(region)) {
          waited = true;
        } else {
          swapRegion(region, replacement);
        }
      });
      if (waited) {
        readLater();
      } else {
        window.clearTimeout(readAgain);
        current.dataset.state = fresh.dataset.state;
      }
      document.dispatchEvent(new CustomEvent("tracker:followed"));
      outbox.showMarks();
      keepAwake();
    }

    // Asked when no stream comes through: true once the server answered.
    async function ask() {
      const current = main();
      const response = await fetch(current.dataset.follow, {
        headers: {"If-None-Match": '"' + current.dataset.state + '"'},
        cache: "no-store", credentials: "same-origin",
      });
      if (response.status === 200) await refresh();
      return response.status < 500;
    }

    function start() {
      if (!main() || !main().dataset.follow) return;
      window.scorekeeperLive.follow(main, {changed: refresh, ask, reachable: outbox.reachable});
    }

    return {refresh, start};
  })();

  // What is typed into a result form (a number, a choice) is kept on the server as soon as
  // the field is left, like a tap, without redrawing the form under the fingers.
  document.addEventListener("change", (event) => {
    const form = event.target.closest && event.target.closest("form.entry[data-entry]");
    if (!form || !event.target.name || event.target.type === "hidden") return;
    const refresh = form.querySelector("button[name=tap][value='']");
    if (!refresh) return;
    htmx.ajax("POST", form.getAttribute("hx-post"), {
      source: refresh, values: {[event.target.name]: event.target.value}, swap: "none",
    });
  });

  // Once stored (or kept in the outbox, which sends in order) the fields an entry sent count
  // as drawn with what was sent. Not before: a save made while the entry is on its way (or
  // queued behind another) sends them too, so a number typed quickly is never left out.
  function countAsDrawn(element, sent) {
    const form = element.closest && element.closest("form.entry[data-entry]");
    if (!form || !sent) return;
    new Set(sent.keys()).forEach((name) => {
      const values = sent.getAll(name);
      form.querySelectorAll(`[name="${CSS.escape(name)}"]`).forEach((control) => {
        if (["radio", "checkbox"].includes(control.type)) {
          control.defaultChecked = values.includes(control.value);
        } else if (control.type !== "hidden" && control.value === values[0]) {
          control.defaultValue = values[0];
        }
      });
    });
  }

  document.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.xhr && event.detail.xhr.status) window.scorekeeperLive.serverAnswered();
    if (event.detail.successful && event.detail.requestConfig) {
      countAsDrawn(event.detail.elt, event.detail.requestConfig.formData);
    }
  });

  document.addEventListener("DOMContentLoaded", () => {
    keepAwake();
    outbox.resume();
    follower.start();
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
