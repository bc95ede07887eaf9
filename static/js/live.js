// A page that shows what other devices change is told the moment it changes, by the server:
// it opens a stream of server-sent events (data-stream) naming the state it shows
// (data-state), and reads itself again on each change. A stream that is lost (the Wi-Fi, a
// server restarting) is opened again naming the state the page shows then, so the server
// tells at once whatever changed meanwhile. Where no stream comes through while the server
// answers (a proxy that holds streams back or refuses them), the page asks instead
// (data-follow), every data-every milliseconds, or data-hidden-every while hidden.
window.scorekeeperLive = (function () {
  "use strict";

  const READY_WITHIN = 5000;  // a stream that says nothing this long is held back
  // The server says it is still there every 20 s: a stream silent for longer was lost
  // without a word (a Wi-Fi gone quiet leaves the connection open but dead).
  const SILENT_FOR = 45000;
  const REFUSED_AFTER = 3;     // streams lost before they came, with the server answering
  const FIRST_RETRY = 1500;
  const LAST_RETRY = 30000;
  const wakers = [];  // each followed element's way to open its lost stream now

  // element(): the element carrying the data-* (a page's <main>, the board), as it is now.
  // changed(content): show the change, which came with the new content (a board's, a shared
  // page's) or is to be read; ask(): ask once instead (true: the server answered);
  // reachable(answered): whether the server can be reached.
  function follow(element, {changed, ask, reachable}) {
    let source = null;
    let retry = FIRST_RETRY;
    let asking = false;
    let everReady = false;
    let refused = 0;
    let reopening = null;
    let silence = null;

    function heard() {
      window.clearTimeout(silence);
      silence = window.setTimeout(lost, SILENT_FOR);
    }

    // The stream is gone (the device went offline, or it fell silent): say so, open another.
    function lost() {
      window.clearTimeout(silence);
      window.clearTimeout(reopening);
      if (source) source.close();
      source = null;
      reachable(false);
      if (!asking) reopening = window.setTimeout(open, FIRST_RETRY);
    }

    // Ask once; true when the server answered.
    function askNow() {
      return ask().then((answered) => {
        reachable(answered);
        return answered;
      }, () => {
        reachable(false);
        return false;
      });
    }

    // The stream is held back: ask on a timer, as long as the page is open.
    function askInstead() {
      if (asking) return;
      asking = true;
      const next = () => {
        const current = element();
        if (!current) return;
        const every = Number(document.hidden ? current.dataset.hiddenEvery : current.dataset.every);
        window.setTimeout(() => askNow().finally(next), every || 5000);
      };
      askNow().finally(next);
    }

    function open() {
      const current = element();
      window.clearTimeout(reopening);
      if (!current || asking || source) return;
      const url = new URL(current.dataset.stream, window.location.href);
      url.searchParams.set("state", current.dataset.state || "");
      const stream = new EventSource(url);
      source = stream;
      let ready = false;
      let heldBack = null;
      stream.addEventListener("open", () => {
        heldBack = window.setTimeout(() => {
          if (ready || source !== stream) return;
          stream.close();
          source = null;
          askInstead();
        }, READY_WITHIN);
      });
      stream.addEventListener("ready", () => {
        ready = true;
        everReady = true;
        retry = FIRST_RETRY;
        window.clearTimeout(heldBack);
        reachable(true);
        heard();
      });
      stream.addEventListener("alive", heard);
      stream.addEventListener("changed", () => {
        heard();
        changed();
      });
      stream.addEventListener("content", (event) => {
        heard();
        changed(event.data);
      });
      stream.addEventListener("gone", () => {
        stream.close();
        changed();
      });
      stream.addEventListener("error", () => {
        window.clearTimeout(heldBack);
        window.clearTimeout(silence);
        stream.close();
        if (source !== stream) return;
        source = null;
        // Lost, or never came: the page's state is compared on the next stream, and asked
        // for meanwhile (which also tells whether the server can be reached).
        askNow().then((answered) => {
          refused = answered && !everReady ? refused + 1 : 0;
          if (refused >= REFUSED_AFTER) {
            askInstead();
          } else {
            reopening = window.setTimeout(open, retry);
            retry = Math.min(retry * 2, LAST_RETRY);
          }
        });
      });
    }

    // The device is back (or the server answered another request): a stream lost meanwhile
    // opens now rather than when its wait is over.
    function back() {
      if (source || asking) return;
      retry = FIRST_RETRY;
      open();
    }
    wakers.push(back);

    window.addEventListener("offline", lost);
    window.addEventListener("online", back);
    // A tablet that wakes up may have had its stream closed while asleep.
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden && source && source.readyState === EventSource.CLOSED) source = null;
      if (!document.hidden) open();
    });
    open();
  }

  // Only what changed is replaced: a region drawn anew would be laid out anew, on every
  // device at every change (eight tablets and ten TVs share two cores in bench/devices.py).
  // An element the same in both stays as it is; one that kept its kind and its children's
  // number takes the new attributes and is compared child by child; anything else is
  // replaced, and given to htmx. Form controls are replaced whole: a new value attribute
  // shows only in a control nobody has typed into. The attributes a script of the page set
  // for this device, which the server cannot know, stay (data-device-attributes names them:
  // a frame that scrolls sideways on this screen, the screen switch's state).
  function morphInto(old, fresh, changed) {
    if (old.isEqualNode(fresh)) return;
    const element = old.nodeType === Node.ELEMENT_NODE;
    if (element && old.nodeName === fresh.nodeName && old.id === fresh.id
        && old.childNodes.length === fresh.childNodes.length
        && !old.matches("input, select, textarea")) {
      const own = ["data-device-attributes", ...(old.dataset.deviceAttributes || "").split(" ")];
      let attributesChanged = false;
      Array.from(fresh.attributes).forEach(({name, value}) => {
        if (own.includes(name) || old.getAttribute(name) === value) return;
        old.setAttribute(name, value);
        attributesChanged = true;
      });
      Array.from(old.attributes).forEach(({name}) => {
        if (own.includes(name) || fresh.hasAttribute(name)) return;
        old.removeAttribute(name);
        attributesChanged = true;
      });
      if (attributesChanged) changed.push(old);
      const children = Array.from(fresh.childNodes);
      Array.from(old.childNodes).forEach((child, i) => morphInto(child, children[i], changed));
    } else if (old.nodeType === Node.TEXT_NODE && fresh.nodeType === Node.TEXT_NODE) {
      old.data = fresh.data;
    } else {
      const node = document.adoptNode(fresh);
      old.replaceWith(node);
      if (node.nodeType === Node.ELEMENT_NODE) changed.push(node);
    }
  }

  // Shows fresh (an element of a page read or pushed) in place of old; what it replaced
  // or changed the attributes of is given to htmx.
  function morph(old, fresh) {
    const changed = [];
    morphInto(old, fresh, changed);
    changed.forEach((element) => { if (element.isConnected) htmx.process(element); });
  }

  // Another request of this page was answered: the server can be reached again.
  function serverAnswered() {
    wakers.forEach((back) => back());
  }

  return {follow, morph, serverAnswered};
})();
