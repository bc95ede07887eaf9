// The Kniffel editor on the device. A cell tapped opens its editor at once, drawn from the
// blank editor the page carries (#cell-editor) with what the cell and the sheet's head say:
// no request stands between the tap and the dice pad. What every roll of five dice scores in
// each field the player may still fill (the engine's roll table, #roll-table) is asked for
// meanwhile, so die taps only redraw the dice and the options here; only the chosen field
// or the typed points go to the server, as an entry of the outbox. Without a connection the
// dice cannot be scored and the typed points wait in the outbox. The server draws the
// editor instead where only it can answer: a cell out of turn (it asks first), the coach's
// hint at every roll, an editor whose answer is still on its way (app.js), and a browser
// without this script.
(function () {
  "use strict";

  const DICE = 5;

  // The rolls in the engine's order (DiceSheetRules.rolls): sorted by face, as
  // combinations_with_replacement makes them. A roll's key is its faces' positions.
  function rollIndexes(faceCount) {
    const indexes = new Map();
    function add(prefix, lowest) {
      if (prefix.length === DICE) {
        indexes.set(prefix.join(","), indexes.size);
        return;
      }
      for (let face = lowest; face < faceCount; face += 1) add([...prefix, face], face);
    }
    add([], 0);
    return indexes;
  }

  const tables = new WeakMap();

  function tableOf(form) {
    const source = form.querySelector("script#roll-table");
    if (!source) return null;
    if (!tables.has(source)) {
      const data = JSON.parse(source.textContent);
      tables.set(source, {
        faces: data.faces,
        tapped: data.tapped,
        rolls: rollIndexes(data.faces.length),
        fields: data.fields.map(([key, label, points]) => ({key, label, points: points.split(",")})),
      });
    }
    return tables.get(source);
  }

  // What the server does with a tap (tracker.table.sheet.tap_dice).
  function tapped(dice, tap) {
    if (tap.startsWith("die:") && dice.length < DICE) return [...dice, tap.slice(4)];
    if (tap.startsWith("undie:")) {
      const index = Number(tap.slice(6));
      return dice.filter((die, position) => position !== index);
    }
    if (tap === "clear") return [];
    return dice;
  }

  // Each open field with what the dice score there, in the sheet's order; none until five.
  function optionsFor(table, dice) {
    if (dice.length !== DICE) return [];
    const positions = dice.map((die) => table.faces.indexOf(die)).sort((a, b) => a - b);
    const roll = table.rolls.get(positions.join(","));
    if (roll === undefined) return [];
    return table.fields.filter((field) => field.points[roll] !== "")
      .map((field) => ({key: field.key, label: field.label, points: field.points[roll]}));
  }

  function drawDice(form, dice) {
    const slots = form.querySelector(".dice-slots");
    const labels = new Map(Array.from(form.querySelectorAll(".die-pad"),
      (pad) => [pad.value.slice(4), pad.textContent]));
    const names = new Map(Array.from(form.querySelectorAll(".die-pad"),
      (pad) => [pad.value.slice(4), pad.getAttribute("aria-label")]));
    const made = form.querySelector("template.die-made");
    slots.querySelectorAll(".die").forEach((old) => old.remove());
    const clear = slots.querySelector(".clear");
    dice.forEach((die, position) => {
      const button = made.content.firstElementChild.cloneNode(true);
      button.value = "undie:" + position;
      button.textContent = labels.get(die);
      button.setAttribute("aria-label", names.get(die));
      slots.insertBefore(button, clear);
    });
    for (let empty = dice.length; empty < DICE; empty += 1) {
      const slot = document.createElement("span");
      slot.className = "die empty";
      slot.setAttribute("aria-hidden", "true");
      slots.insertBefore(slot, clear);
    }
    const full = dice.length >= DICE;
    form.querySelector(".pad-row").classList.toggle("full", full);
    form.querySelectorAll(".die-pad").forEach((pad) => { pad.disabled = full; });
    form.querySelector("input[name=dice]").value = dice.join(",");
  }

  function drawOptions(form, table, dice) {
    const options = table ? optionsFor(table, dice) : [];
    const unavailable = form.querySelector(".rolls-unavailable");
    if (unavailable) unavailable.hidden = Boolean(table) || dice.length !== DICE;
    const made = form.querySelector("template.option-made");
    const buttons = options.map((option) => {
      const button = made.content.firstElementChild.cloneNode(true);
      button.value = option.key;
      button.dataset.entryText = option.points;
      button.classList.toggle("tapped", option.key === table.tapped);
      button.querySelector("span").textContent = option.label;
      button.querySelector("strong").textContent = option.points;
      return button;
    });
    form.querySelector(".options").replaceChildren(...buttons);
    form.querySelector(".options-hint").hidden = !options.length;
    form.querySelector(".dice-wanted").hidden = Boolean(options.length) || !dice.length
      || (!table && dice.length === DICE);
  }

  // Focus stays on the tapped control; when that was a die taken back, or a pad now
  // disabled by the fifth die, it moves to what comes next: the first die, or the options.
  function keepFocus(form, tap, dice) {
    if (tap.startsWith("undie:")) {
      const next = form.querySelector(".dice-slots button.die") || form.querySelector(".die-pad");
      next.focus();
    } else if (tap.startsWith("die:") && dice.length === DICE) {
      // The field the cell was tapped for first: Enter puts the roll where it was meant to go.
      const first = form.querySelector(".options .tapped") || form.querySelector(".options button");
      if (first) first.focus();
    }
  }

  // Each die entered or taken back is said at once ("The dice rolled: 6, 6, 5"), not only
  // the options once the fifth is in: a key pressed should be heard.
  function sayDice(form, dice) {
    const region = document.getElementById("announcer");
    const slots = form.querySelector(".dice-slots");
    if (!region || !slots) return;
    const names = new Map(Array.from(form.querySelectorAll(".die-pad"),
      (pad) => [pad.value.slice(4), pad.getAttribute("aria-label")]));
    const said = dice.map((die) => names.get(die)).join(", ") || slots.dataset.none;
    region.textContent = `${slots.getAttribute("aria-label")}: ${said}`;
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button[name=tap]");
    const form = button && button.form;
    if (!form || !form.classList.contains("dice-form")) return;
    const table = tableOf(form);
    if (!table && !form.hasAttribute("data-on-device")) return;
    event.preventDefault();
    const input = form.querySelector("input[name=dice]");
    const before = input.value ? input.value.split(",") : [];
    const dice = tapped(before, button.value);
    // The server's editor after a tap no longer says why the last save was refused.
    form.parentElement.querySelectorAll(":scope > p.error").forEach((old) => old.remove());
    drawDice(form, dice);
    drawOptions(form, table, dice);
    keepFocus(form, button.value, dice);
    if (/^(un)?die:|^clear$/.test(button.value)) sayDice(form, dice);
  });

  // ---- The editor opened on the device --------------------------------------------------
  // Whether the server asks first: an empty cell of someone whose turn it is not.
  function outOfTurn(cell) {
    const turn = document.getElementById("turn");
    const inTurn = turn && turn.dataset.player;
    const player = cell.closest("td[id]").id.split("-")[1];
    return !cell.classList.contains("filled") && Boolean(inTurn) && inTurn !== player;
  }

  // The editor's title as the server writes it: the player's colour and name (the column's
  // head), the field (the row's head).
  function title(cell) {
    const slot = cell.closest("td");
    const head = slot.closest("table").tHead.rows[0].cells[slot.cellIndex];
    const field = slot.closest("tr").querySelector("th").textContent.trim();
    const dot = head.querySelector(".dot");
    return [dot ? dot.cloneNode(true) : "", `${head.textContent.trim()} · ${field}`];
  }

  async function fetchTable(form, url) {
    let data = null;
    try {
      const response = await fetch(url + "rolls/", {credentials: "same-origin", cache: "no-store"});
      if (response.ok) data = await response.text();
    } catch (unreachable) {
      // Offline: the dice are kept here and the typed points go to the outbox.
    }
    if (!form.isConnected) return;
    if (data !== null) {
      const source = document.createElement("script");
      source.type = "application/json";
      source.id = "roll-table";
      source.textContent = data;
      form.appendChild(source);
    }
    const input = form.querySelector("input[name=dice]");
    drawOptions(form, tableOf(form), input.value ? input.value.split(",") : []);
  }

  function open(cell, template, editor) {
    const url = cell.getAttribute("href");
    const content = template.content.cloneNode(true);
    content.getElementById("editor-title").replaceChildren(...title(cell));
    content.querySelectorAll("form").forEach((form) => {
      form.action = url;
      form.setAttribute("hx-post", url);
      form.dataset.entryMark = "#" + CSS.escape(cell.closest("td").id) + " .cell";
      form.querySelector("input[name=version]").value = cell.dataset.version || "";
    });
    // Points waiting on this device for the cell come first: they are what it shows.
    const typed = cell.dataset.waiting !== undefined ? cell.dataset.waiting : cell.dataset.points;
    content.querySelector(".typed input[name=points]").value = typed || "";
    editor.replaceChildren(content);
    editor.classList.remove("empty");
    editor.setAttribute("role", "dialog");
    editor.setAttribute("aria-labelledby", "editor-title");
    editor.setAttribute("tabindex", "-1");
    htmx.process(editor);
    editor.dispatchEvent(new CustomEvent("tracker:editor-opened", {bubbles: true, detail: {cell}}));
    fetchTable(editor.querySelector(".dice-form"), url);
  }

  // Before htmx follows the cell's link (in the capture phase, which comes first).
  document.addEventListener("click", (event) => {
    const cell = event.target.closest && event.target.closest("#sheet-table a.cell");
    const template = document.getElementById("cell-editor");
    const editor = document.getElementById("editor");
    if (!cell || !template || !editor || event.button !== 0 || event.ctrlKey || event.metaKey
        || event.shiftKey || editor.getAttribute("aria-busy") === "true" || outOfTurn(cell)) {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    open(cell, template, editor);
  }, true);
})();
