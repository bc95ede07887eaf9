// The Kniffel editor answers die taps on the device. With the editor the server sends what
// every roll of five dice scores in each field the player may still fill (the engine's
// roll table, #roll-table), so a tap only redraws the dice and the options here; only the
// chosen field goes to the server. The editor is drawn as the server draws it after a tap
// (templates/plays/sheet_editor.html): without this script, or without a table (the
// coach's hint asks the server at every tap), the taps go to the server as before.
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
    const options = optionsFor(table, dice);
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
    form.querySelector(".dice-wanted").hidden = Boolean(options.length) || !dice.length;
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
    if (!table) return;
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
})();
