// The score pad's number pad, on the device. A cell tapped opens its pad at once, drawn from
// the page's blank pad (#numpad-template) with what the cell carries: no request, so the pad
// is there under the finger, on a busy tablet and with the Wi-Fi down alike. The keys type
// into the display here too (the server does the same for a browser without JavaScript:
// tracker.table.score_pad.apply_key). Only Save goes to the server, as an entry of the
// outbox with its key, and the server's answer confirms it (the next cell's pad, the totals)
// or refuses it where it was made. Saved, the pad moves on to the next blank cell at once,
// so the next points typed go there; an answer that comes after another cell was opened
// here changes the table and the totals, and leaves the pad now open as it is.
(function () {
  "use strict";

  let opened = 0;  // pads this device has opened so far
  const SAVED_TWICE_WITHIN = 800;  // a Save this soon on the pad moved on to was the same tap

  const OPERATORS = {plus: "+", subtract: "-"};
  function applyKey(typed, key) {
    if (key === "minus") return typed.startsWith("-") ? typed.slice(1) : "-" + typed;
    if (key === "back") return typed.slice(0, -1);
    if (key in OPERATORS) {
      if (!typed || typed === "-") return key === "subtract" ? "-" : "";
      if (typed.length >= 60) return typed;
      return (/[+-]$/.test(typed) ? typed.slice(0, -1) : typed) + OPERATORS[key];
    }
    if (!/^[0-9]$/.test(key) || typed.length >= 60) return typed;
    const number = typed.split(/[+-]/).pop();
    if (number.length >= 7) return typed;
    return (number === "0" ? typed.slice(0, -1) : typed) + key;
  }

  // ``movedOn``: opened by a save moving on, not by a tap: it moves on with the game (another
  // tablet's entry, the end of the game) until something is typed into it.
  function open(cell, template, movedOn = false) {
    const editor = document.getElementById("pad-editor");
    const form = template.content.firstElementChild.cloneNode(true);
    const url = cell.getAttribute("href");
    form.action = url;
    form.setAttribute("hx-post", url);
    form.dataset.entryMark = ".pad-cell[href='" + url + "']";
    form.querySelector("input[name=version]").value = cell.dataset.version || "";
    const seen = cell.dataset.seen || "";
    form.querySelector("input[name=seen]").value = seen;
    const stored = form.querySelector(".numpad-stored");
    stored.textContent = stored.textContent.replace("__points__", seen);
    stored.hidden = seen === "";
    form.querySelector(".minus-note").hidden = !("minus" in cell.dataset);
    form.querySelector(".numpad-title").textContent = cell.dataset.name;
    const dot = form.querySelector(".numpad-head .dot");
    dot.className = "dot " + (cell.dataset.dot || "");
    dot.hidden = !cell.dataset.dot;
    // Points waiting on this device for the cell come first: they are what it shows.
    const display = form.querySelector(".numpad-value");
    display.value = cell.dataset.waiting !== undefined ? cell.dataset.waiting : cell.dataset.typed;
    display.inputMode = "none";
    form.dataset.shown = display.value;

    // The focus stays on the same control of the pad (the display, Save), as a keyboard had it.
    const active = editor.contains(document.activeElement) ? document.activeElement : null;
    park(editor.querySelector(".numpad-form.htmx-request"));
    editor.replaceChildren(form);
    editor.classList.remove("empty");
    editor.setAttribute("data-follow-keep", movedOn ? "typed" : "");
    if (movedOn) form.dataset.movedOnAt = performance.now();
    editor.setAttribute("role", "dialog");
    editor.setAttribute("aria-labelledby", "pad-editor-title");
    editor.setAttribute("tabindex", "-1");
    document.querySelectorAll(".pad-cell.open").forEach((other) => other.classList.remove("open"));
    cell.classList.add("open");
    htmx.process(editor);
    opened += 1;
    const again = active && Array.from(form.querySelectorAll(active.tagName)).find((control) =>
      control.name === active.name && control.getAttribute("aria-hidden") === active.getAttribute(
        "aria-hidden"));
    if (again) again.focus();
    editor.dispatchEvent(new CustomEvent("tracker:pad-opened", {
      bubbles: true, detail: {cell, focused: Boolean(again)}}));
  }

  // A pad whose Save is on its way stays in the page, out of sight, until its answer is in:
  // htmx tells the page of the answer (the outbox takes the entry out, the answer's parts
  // come in) only through a form that is still in the page.
  function park(form) {
    if (!form) return;
    let lot = document.getElementById("pad-sending");
    if (!lot) {
      lot = document.createElement("div");
      lot.id = "pad-sending";
      lot.hidden = true;
      document.body.appendChild(lot);
    }
    lot.appendChild(form);
  }

  ["htmx:afterRequest", "htmx:sendError", "htmx:timeout"].forEach((type) => {
    document.addEventListener(type, (event) => {
      const form = event.detail.elt;
      if (form.parentElement && form.parentElement.id === "pad-sending") {
        window.setTimeout(() => form.remove());  // after every other listener of the answer
      }
    });
  });

  document.addEventListener("click", (event) => {
    const cell = event.target.closest && event.target.closest("a.pad-cell");
    const template = document.getElementById("numpad-template");
    if (!cell || !template || event.button !== 0 || event.ctrlKey || event.metaKey
        || event.shiftKey) return;
    event.preventDefault();
    open(cell, template);
  });

  document.addEventListener("click", (event) => {
    const key = event.target.closest && event.target.closest(".numpad button[name=key]");
    if (!key) return;
    event.preventDefault();
    const display = key.form.querySelector("input[name=points]");
    display.value = applyKey(display.value.trim(), key.value);
  });

  // A pad the server drew (after a save) brings up no on-screen keyboard over its keys either.
  document.addEventListener("htmx:load", (event) => {
    const root = event.detail.elt;
    const displays = root.querySelectorAll ? root.querySelectorAll(".numpad-value") : [];
    displays.forEach((display) => { display.inputMode = "none"; });
  });

  // The next blank cell after ``saved``, as the server moves on: across the rows, or down
  // the columns where the family's pad goes down (data-down); from the top when none
  // follows. None when every cell drawn is filled: the server's answer draws the next round.
  function nextCell(saved) {
    const rounds = document.getElementById("pad-rounds");
    const rows = Array.from(rounds.querySelectorAll("tr"), (row) => Array.from(
      row.querySelectorAll("a.pad-cell"))).filter((cells) => cells.length);
    let order = rows.flat();
    if (rounds.dataset.down !== undefined) {
      const columns = Math.max(...rows.map((cells) => cells.length));
      order = [];
      for (let column = 0; column < columns; column += 1) {
        rows.forEach((cells) => { if (cells[column]) order.push(cells[column]); });
      }
    }
    const blank = (cell) => cell !== saved && cell.classList.contains("blank")
      && cell.dataset.waiting === undefined && cell.dataset.sent === undefined;
    const at = order.indexOf(saved);
    return order.slice(at + 1).find(blank) || order.slice(0, at).find(blank) || null;
  }

  // A Save with nothing typed, on a cell with nothing stored, is answered here: nothing to
  // save, the pad says what is missing (and a Save tapped twice, landing on the next cell's
  // empty pad, saves nothing there).
  document.addEventListener("submit", (event) => {
    const form = event.target;
    const said = form.querySelector && form.querySelector("template.nothing-to-save");
    if (!said || form.querySelector(".numpad-value").value.trim()
        || form.querySelector("input[name=seen]").value) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    const twice = performance.now() - Number(form.dataset.movedOnAt || -1e9) < SAVED_TWICE_WITHIN;
    if (twice || form.querySelector("[data-refusal] .refusal")) return;
    form.querySelectorAll("#pad-editor-message").forEach((dismissed) => dismissed.remove());
    said.before(said.content.cloneNode(true));
  }, true);

  // On from the cell ``form`` saved to the next blank cell the rows show: false for none.
  function moveOn(form) {
    const template = document.getElementById("numpad-template");
    const saved = document.querySelector(form.dataset.entryMark);
    const next = template && saved && nextCell(saved);
    if (next) open(next, template, true);
    return Boolean(next);
  }

  // Saved (sent, or kept on the device): on to the next cell. Where there is none yet, the
  // pad takes no more keys until the server's answer brings the next one.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.matches || !form.matches(".numpad-form")) return;
    const saved = document.querySelector(form.dataset.entryMark);
    // Until the server draws the rows again, the cell counts as filled.
    if (saved) saved.dataset.sent = "";
    if (moveOn(form)) return;
    form.setAttribute("aria-busy", "true");
    form.querySelector(".numpad-value").readOnly = true;
    form.querySelectorAll(".numpad button").forEach((key) => { key.disabled = true; });
  });

  document.addEventListener("htmx:beforeRequest", (event) => {
    const form = event.detail.elt.closest && event.detail.elt.closest(".numpad-form");
    if (form && event.detail.xhr) event.detail.xhr.padsOpenedBefore = opened;
  });

  // Rows the server draws mark the cell of the pad it would show; the open cell is the one
  // whose pad is shown here (an answer to an earlier Save comes after the pad moved on).
  function markOpen() {
    const form = document.querySelector("#pad-editor .numpad-form");
    const cell = form && form.dataset.entryMark && document.querySelector(form.dataset.entryMark);
    if (!cell) return;
    document.querySelectorAll(".pad-cell.open").forEach((other) => {
      if (other !== cell) other.classList.remove("open");
    });
    cell.classList.add("open");
  }

  // A pad that opened by itself for a blank cell the rows now show filled, with nothing typed
  // into it, came with older rows: two Saves on their way were stored in the other order
  // than sent, and the one stored first named the other's cell as next. On to the next blank
  // cell. (A pad the family tapped stays: a number saved there is refused with both.)
  function moveOnFromFilled() {
    const form = document.querySelector("#pad-editor[data-follow-keep='typed'] .numpad-form");
    const cell = form && form.dataset.entryMark && document.querySelector(form.dataset.entryMark);
    if (!cell || cell.classList.contains("blank") || form.getAttribute("aria-busy")
        || form.querySelector("input[name=seen]").value !== ""
        || form.querySelector(".numpad-value").value !== "") return;
    moveOn(form);
  }
  ["htmx:afterSettle", "htmx:oobAfterSwap", "tracker:followed"].forEach((type) => {
    document.addEventListener(type, () => {
      markOpen();
      moveOnFromFilled();
    });
  });

  // The answer to a Save, read once for the listeners below.
  function answerOf(xhr) {
    if (!xhr.answer) xhr.answer = new DOMParser().parseFromString(xhr.responseText, "text/html");
    return xhr.answer;
  }

  // The play's version the rows of a pad show (each cell carries it), in the page or in an
  // answer (whose rows come in a <template>).
  function versionShown(root) {
    const cell = root.querySelector(".pad-cell[data-version]") || Array.from(
      root.querySelectorAll("template"),
      (template) => template.content.querySelector(".pad-cell[data-version]")).find(Boolean);
    return cell ? Number(cell.dataset.version) : null;
  }

  // An answer older than the rows shown changes nothing: two Saves on their way were answered
  // out of order, or another tablet's change was read meanwhile. (Told before htmx looks for
  // the answer's target: the pad it was sent from may have been replaced since, and an event
  // on it would reach no one, while its parts out of band would still come in.)
  document.addEventListener("htmx:beforeOnLoad", (event) => {
    const xhr = event.detail.xhr;
    const rounds = document.getElementById("pad-rounds");
    if (!xhr || xhr.padsOpenedBefore === undefined || xhr.status !== 200 || !rounds) return;
    const shown = versionShown(rounds);
    const theirs = versionShown(answerOf(xhr));
    if (shown === null || theirs === null || theirs >= shown) return;
    event.preventDefault();
    // A pad still waiting for this answer to bring the next cell moves on from the rows shown.
    const sender = event.detail.elt;
    if (sender.closest("#pad-editor") && sender.getAttribute("aria-busy") === "true") {
      moveOn(sender);
    }
  });

  // The answer to a Save that came after this device opened another pad: its parts out of
  // band (the rows, the totals) come in; its pad comes in only where it says something the
  // pad here does not (the end of the game, another cell) and nothing was typed here since.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const xhr = event.detail.xhr;
    if (!xhr || xhr.padsOpenedBefore === undefined || xhr.padsOpenedBefore === opened
        || !event.detail.target || event.detail.target.id !== "pad-editor" || xhr.status >= 400) {
      return;
    }
    const current = document.querySelector("#pad-editor .numpad-form");
    const answer = answerOf(xhr);
    const theirs = answer.querySelector("#pad-editor .numpad-form");
    const typedHere = !current || !current.dataset.movedOnAt
      || current.querySelector(".numpad-value").value !== current.dataset.shown;
    const sameCell = theirs && theirs.getAttribute("hx-post") === current.getAttribute("hx-post");
    if (typedHere || (sameCell && !answer.querySelector(".end-question"))) {
      event.detail.swapOverride = "none";
    }
  });
})();
