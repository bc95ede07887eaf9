// Everyone at the table: the focus stays where the hands are across every update, the cell
// editor and the number pad open as dialogs and close with Escape, dice are entered with the
// keys 1 to 6, tables that scroll sideways take the focus, and one polite live region
// (#announcer, outside the swapped regions) says what changed.
(function () {
  "use strict";

  // ---- One live region ---------------------------------------------------------------
  // Elements marked data-announce say their attribute (or, empty, their text) once it
  // changes: an entry from this tablet or another, a lead, a turn, the coach's hint.
  const said = new Map();

  function announced() {
    return Array.from(document.querySelectorAll("#main [data-announce]"), (element) => ({
      key: element.id || element.classList[0],
      text: (element.dataset.announce || element.textContent).replace(/\s+/g, " ").trim(),
    }));
  }

  function remember() {
    announced().forEach(({key, text}) => said.set(key, text));
  }

  function announceChanges() {
    const news = announced().filter(({key, text}) => text && said.get(key) !== text);
    remember();
    const region = document.getElementById("announcer");
    if (!region || !news.length) return;
    region.textContent = news.map(({text}) => text).join(" ");
  }

  // ---- Keyboard or touch --------------------------------------------------------------
  // A text field takes the focus by itself only for a keyboard: on a tablet it would raise
  // the screen keyboard over the number pad.
  let keyboard = false;
  document.addEventListener("keydown", () => { keyboard = true; }, true);
  document.addEventListener("pointerdown", () => { keyboard = false; }, true);

  // ---- The focus across updates -------------------------------------------------------
  // What had the focus inside an element htmx replaces, to find again in what replaced it.
  function describe(element) {
    if (!element || element === document.body) return null;
    if (element.id) return "#" + CSS.escape(element.id);
    if (element.name) {
      const chosen = element.tagName === "BUTTON" || ["radio", "checkbox"].includes(element.type);
      const value = element.value && chosen ? `[value="${CSS.escape(element.value)}"]` : "";
      return `${element.tagName.toLowerCase()}[name="${CSS.escape(element.name)}"]${value}`;
    }
    return null;
  }

  // A form that answers each choice with itself (the new-game screen: a game, a player, a
  // seat) keeps the focus on the control chosen; without this it fell to the page after
  // every choice, and a keyboard started again from the top.
  let focusInPage = null;

  // Where the focus goes once htmx has replaced (part of) a dialog: noted before the swap.
  let focusAfterSwap = null;  // {dialog: its id, selector, inside: it had the focus, opened}
  let opener = null;  // the id of the cell (its <td>) whose editor is open
  let closing = false;  // Escape pressed: the focus returns to the cell wherever it was

  function dialogOf(element) {
    return element && element.closest && element.closest("#editor, #pad-editor");
  }

  function cellLink(id) {
    const cell = id && document.getElementById(id);
    return cell && cell.querySelector("a");
  }

  // The control of a dialog that takes the focus when it opens: the number pad's display
  // for a keyboard; else the first thing to press: a die, else the field the cell was opened
  // for, else a field. None: the dialog itself.
  function firstControl(dialog) {
    const input = dialog.querySelector(".numpad-value");
    if (input) return keyboard ? input : null;
    return [".die-pad:not([disabled])", ".options .tapped", ".options button"]
      .map((selector) => dialog.querySelector(selector)).find(Boolean) || null;
  }

  function focusInto(dialog) {
    const control = firstControl(dialog);
    (control || dialog).focus();
    if (control && control.matches(".numpad-value")) control.select();
  }

  document.addEventListener("htmx:beforeSwap", (event) => {
    focusInPage = null;
    const active = document.activeElement;
    const elt = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (elt && elt.matches && elt.matches("a.cell, a.pad-cell")) {
      opener = elt.closest("td[id]") ? elt.closest("td[id]").id : null;
      focusAfterSwap = {dialog: event.detail.target.id, opened: true, from: active};
      return;
    }
    const dialog = dialogOf(active) || dialogOf(event.detail.target);
    focusAfterSwap = dialog && {
      dialog: dialog.id, selector: describe(active), inside: closing || dialog.contains(active),
      from: active,
    };
    closing = false;
    const target = event.detail.target;
    focusInPage = !dialog && target && target.contains(active) ? describe(active) : null;
  });

  // A dialog opened from a cell takes the focus as soon as its controls are in the page, not
  // once it has settled (its own attributes come only then): a key pressed in that moment
  // would go to the cell and be lost.
  document.addEventListener("htmx:afterSwap", (event) => {
    const was = focusAfterSwap;
    const dialog = was && was.opened && event.detail.target.id === was.dialog
      && document.getElementById(was.dialog);
    const control = dialog && firstControl(dialog);
    if (!control) return;
    focusAfterSwap = null;
    focusInto(dialog);
  });

  document.addEventListener("htmx:afterSettle", () => {
    const was = focusAfterSwap;
    focusAfterSwap = null;
    announceChanges();
    const selector = focusInPage;
    focusInPage = null;
    if (selector && (!document.activeElement || document.activeElement === document.body)) {
      const again = Array.from(document.querySelectorAll(selector))
        .find((control) => !control.closest("[aria-hidden=true]") && !control.disabled);
      if (again) again.focus();
    }
    const dialog = was && document.getElementById(was.dialog);
    if (!dialog) return;
    // The keyboard went elsewhere while the answer settled (Escape back to the table): the
    // focus stays where it went.
    const now = document.activeElement;
    if (now && now !== document.body && now !== was.from && !dialog.contains(now)) return;
    if (dialog.classList.contains("empty")) {
      // Saved or closed: back to the cell the editor was opened from, scrolled into view
      // for a keyboard. A finger may be on its way to another cell: the page stays under it.
      const link = cellLink(opener);
      if (link && was.inside) link.focus({preventScroll: !keyboard});
    } else if (was.opened) {
      focusInto(dialog);
    } else {
      // (Not a hidden twin: the number pad's hidden Save is the one Enter in its field presses.)
      const again = was.selector && Array.from(dialog.querySelectorAll(was.selector))
        .find((control) => !control.closest("[aria-hidden=true]"));
      if (again && !again.disabled) {
        again.focus();
      } else if (was.inside && !dialog.contains(document.activeElement)) {
        focusInto(dialog);
      }
    }
  });

  // ---- Keys in the dialogs ------------------------------------------------------------
  function close(dialog) {
    const link = dialog.querySelector("a.close");
    if (link) {
      closing = true;
      link.click();
      return;
    }
    // The number pad stays open on the next cell: Escape takes the focus back to the table,
    // to the cell whose pad is shown.
    const form = dialog.id === "pad-editor" && dialog.querySelector("form[data-entry-mark]");
    const open = form && document.querySelector(form.dataset.entryMark);
    if (open) open.focus();
  }

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const dialog = dialogOf(document.activeElement)
      || (document.activeElement === document.body && document.querySelector("#editor:not(.empty)"));
    // (Open: it has its form or its head, even before its own attributes settle, "empty"
    // among them.)
    if (!dialog || !dialog.querySelector("form, .editor-head")) return;
    if (event.key === "Escape") {
      event.preventDefault();
      close(dialog);
      return;
    }
    const form = dialog.querySelector(".dice-form");
    const typing = document.activeElement && document.activeElement.matches("input, textarea, select");
    if (!form || typing) return;
    const pad = /^[1-9]$/.test(event.key) && form.querySelector(`.die-pad[data-key="${event.key}"]`);
    if (pad) {
      event.preventDefault();
      if (!pad.disabled) pad.click();
    } else if (event.key === "Backspace") {
      const dice = form.querySelectorAll(".dice-slots button.die");
      if (dice.length) {
        event.preventDefault();
        dice[dice.length - 1].click();
      }
    }
  });

  // ---- The number pad over the score pad ----------------------------------------------
  // On a phone, an upright tablet or at 200% zoom the number pad is a bar fixed at the
  // bottom, as tall as its keys need: the page leaves that much room below the table, and
  // the open cell (and a cell that takes the focus) is scrolled clear of it (WCAG 2.4.11).
  function roomForPad() {
    const editor = document.getElementById("pad-editor");
    const over = editor && !editor.classList.contains("empty")
      && getComputedStyle(editor).position === "fixed";
    document.documentElement.style.setProperty(
      "--pad-room", over ? `${editor.offsetHeight + 12}px` : "0px");
    const open = over && document.querySelector(".pad-cell.open");
    if (open) open.scrollIntoView({block: "nearest"});
  }

  document.addEventListener("focusin", (event) => {
    if (event.target.matches && event.target.matches(".pad-cell")) {
      event.target.scrollIntoView({block: "nearest"});
    }
  });

  // ---- Straight to the turn -----------------------------------------------------------
  // The sheet's "To the next field of the player in turn": their first open field, without
  // a Tab through every cell above it (29 for Full House). The sheet's columns mark the
  // player in turn (col.current).
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a.skip-to-turn");
    const cols = document.querySelectorAll("#sheet-cols col");
    const column = Array.from(cols).findIndex((col) => col.classList.contains("current"));
    if (!link || column < 0) return;
    const open = Array.from(document.querySelectorAll("#sheet tbody tr"),
      (row) => row.children[column]).find((cell) => cell && cell.querySelector("a.cell:not(.filled)"));
    if (!open) return;
    event.preventDefault();
    open.querySelector("a.cell").focus();
  });

  // ---- Tables wider than the screen ---------------------------------------------------
  // A frame that scrolls sideways takes the focus (the arrow keys scroll it) and is named
  // after its table's heading; one that fits adds no stop to the Tab order.
  function frameName(frame) {
    let heading = frame.previousElementSibling;
    while (heading && !/^H[1-6]$/.test(heading.tagName)) heading = heading.previousElementSibling;
    heading = heading || document.querySelector("#main h1");
    return heading ? heading.textContent.trim() : "";
  }

  // Measuring a frame lays the page out: done once a frame, however many swaps came in it.
  let framesMeasured = null;
  function focusableFramesSoon() {
    if (framesMeasured === null) {
      framesMeasured = window.requestAnimationFrame(() => {
        framesMeasured = null;
        focusableFrames();
      });
    }
  }

  function focusableFrames() {
    document.querySelectorAll(".table-scroll, .sheet-scroll").forEach((frame) => {
      if (frame.scrollWidth > frame.clientWidth + 1) {
        const name = frameName(frame);
        if (frame.getAttribute("aria-label") === name) return;
        frame.tabIndex = 0;
        frame.setAttribute("role", "region");
        frame.setAttribute("aria-label", name);
        frame.dataset.deviceAttributes = "tabindex role aria-label";  // kept by live.js's morph
      } else if (frame.hasAttribute("tabindex")) {
        ["tabindex", "role", "aria-label", "data-device-attributes"].forEach((attribute) => {
          frame.removeAttribute(attribute);
        });
      }
    });
  }

  // An answer that leaves the open pad as it is still brings its news out of band.
  document.addEventListener("htmx:oobAfterSwap", announceChanges);
  document.addEventListener("tracker:followed", () => {
    announceChanges();
    focusableFramesSoon();
  });
  document.addEventListener("htmx:load", focusableFramesSoon);
  document.addEventListener("htmx:afterSettle", roomForPad);
  // A number pad opened on the device (numpad.js): as one the server drew for a cell tapped.
  document.addEventListener("tracker:pad-opened", (event) => {
    if (!event.detail.focused) focusInto(event.target);
    roomForPad();
  });
  window.addEventListener("resize", () => {
    focusableFrames();
    roomForPad();
  });
  document.addEventListener("DOMContentLoaded", () => {
    remember();
    focusableFrames();
    roomForPad();
  });
})();
