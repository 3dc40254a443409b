// Progressive enhancement only: every page works without it. Embedded as a module so the build is just `tsc`.
export const SCRIPT = String.raw`
(function () {
  'use strict';

  // One zone per page: the browser's. Every time shown, every zone name and every form's zone field use it,
  // so a time read on the page and typed into a form mean the same instant.
  var zone = (function () {
    try { return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'; } catch (e) { return 'UTC'; }
  })();
  var words = new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'medium', timeStyle: 'medium' });
  var wall = new Intl.DateTimeFormat('en-US', {
    timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
    hour: '2-digit', minute: '2-digit', second: '2-digit'
  });
  function inputValue(d) {
    var p = {};
    wall.formatToParts(d).forEach(function (part) { p[part.type] = part.value; });
    return p.year + '-' + p.month + '-' + p.day + 'T' + p.hour + ':' + p.minute + ':' + p.second;
  }

  function localTimes(root) {
    root.querySelectorAll('time[data-local]').forEach(function (el) {
      var d = new Date(el.getAttribute('datetime'));
      if (!isNaN(d.getTime())) el.textContent = words.format(d);
    });
    root.querySelectorAll('[data-at]').forEach(function (el) {
      var d = new Date(el.getAttribute('data-at'));
      if (!isNaN(d.getTime())) el.textContent = words.format(d) + (el.getAttribute('data-rest') || '');
    });
    root.querySelectorAll('[data-zone-name]').forEach(function (el) { el.textContent = zone; });
    root.querySelectorAll('input[data-zone-input]').forEach(function (el) { el.value = zone; });
    // A picker's starting value, given as an instant, shown as the wall-clock time of this zone.
    root.querySelectorAll('input[data-instant]').forEach(function (el) {
      var d = new Date(el.getAttribute('data-instant'));
      if (!isNaN(d.getTime())) el.value = inputValue(d);
    });
  }

  // Warn while typing when credentials would go to http:// (the stylesheet shows the chosen scheme's fields).
  function authForm(form) {
    var radios = form.querySelectorAll('input[name="auth_scheme"]');
    var url = form.querySelector('input[name="url"]');
    var warning = form.querySelector('[data-http-warning]');
    function update() {
      var scheme = (form.querySelector('input[name="auth_scheme"]:checked') || {}).value || 'none';
      if (warning && url) warning.hidden = !(scheme !== 'none' && /^http:\/\//i.test(url.value.trim()));
    }
    radios.forEach(function (r) { r.addEventListener('change', update); });
    if (url) url.addEventListener('input', update);
    update();
  }

  // "Every kind" and the single kinds agree while ticking: unticking a kind unticks "Every kind" (the hook
  // then gets exactly the kinds ticked); ticking "Every kind" ticks them all.
  function kindChoices(box) {
    var every = box.querySelector('input[name="events_all"]');
    var kinds = box.querySelectorAll('input[name="events"]');
    if (!every) return;
    every.addEventListener('change', function () {
      if (every.checked) kinds.forEach(function (k) { k.checked = true; });
    });
    kinds.forEach(function (k) {
      k.addEventListener('change', function () { if (!k.checked) every.checked = false; });
    });
  }

  function confirmations() {
    document.querySelectorAll('form[data-confirm]').forEach(function (form) {
      form.addEventListener('submit', function (event) {
        if (!window.confirm(form.getAttribute('data-confirm'))) event.preventDefault();
      });
    });
  }

  // The delivery log refreshes itself; when the hook's state changes (suspended or re-enabled elsewhere)
  // the whole page reloads so the banner and actions match.
  function liveLog(box) {
    var url = box.getAttribute('data-refresh-url');
    var every = Number(box.getAttribute('data-refresh-every')) || 3000;
    var state = box.getAttribute('data-state');
    var last = null;
    var busy = false;
    function tick() {
      if (busy || document.hidden) return;
      busy = true;
      fetch(url, { credentials: 'same-origin', headers: { Accept: 'text/html' } })
        .then(function (res) {
          if (!res.ok) throw new Error('HTTP ' + res.status);
          var newState = res.headers.get('X-Hook-State');
          if (newState && state && newState !== state) { window.location.reload(); return; }
          return res.text().then(function (text) {
            if (text !== last) {
              last = text;
              box.innerHTML = text;
              localTimes(box);
            }
            box.setAttribute('data-refreshed', new Date().toISOString());
          });
        })
        .catch(function () { /* a missed refresh is retried on the next tick */ })
        .then(function () { busy = false; });
    }
    setInterval(tick, every);
  }

  // Copies the signing secret; says so on the button, since the secret is shown only on this page.
  function copyButtons() {
    document.querySelectorAll('[data-copy]').forEach(function (button) {
      button.addEventListener('click', function () {
        var field = document.querySelector(button.getAttribute('data-copy'));
        if (!field) return;
        field.select();
        var done = function () { button.textContent = 'Copied'; };
        if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand('copy'); done(); });
        else { document.execCommand('copy'); done(); }
      });
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    copyButtons();
    localTimes(document);
    document.querySelectorAll('form[data-hook-form]').forEach(authForm);
    confirmations();
    document.querySelectorAll('[data-kinds]').forEach(kindChoices);
    document.querySelectorAll('[data-refresh-url]').forEach(liveLog);
  });
})();
`;
