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

  document.addEventListener("htmx:beforeRequest", (event) => {
    const anchor = event.detail.elt.closest("form") || event.detail.elt;
    const container = anchor.parentElement;
    if (container) {
      container.querySelectorAll(":scope > .request-error").forEach((old) => old.remove());
    }
  });
})();
