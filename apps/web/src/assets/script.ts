// Progressive enhancement only: every page works without it. Embedded as a module so the build is just `tsc`.
export const SCRIPT = String.raw`
(function () {
  'use strict';

  // One zone per page: the browser's. Every time shown, every zone name and every form's zone field use it,
  // so a time read on the page and typed into a form mean the same instant.
  // Browsers name some zones by their old IANA names (Chromium: Asia/Calcutta for India): the page names them as
  // their people do, when this browser knows the new name too (the same zone, the same instants).
  var RENAMED = {
    'Asia/Calcutta': 'Asia/Kolkata', 'Asia/Saigon': 'Asia/Ho_Chi_Minh', 'Asia/Katmandu': 'Asia/Kathmandu',
    'Asia/Rangoon': 'Asia/Yangon', 'Europe/Kiev': 'Europe/Kyiv', 'America/Godthab': 'America/Nuuk',
    'Atlantic/Faeroe': 'Atlantic/Faroe', 'Pacific/Truk': 'Pacific/Chuuk', 'Pacific/Ponape': 'Pacific/Pohnpei'
  };
  var zone = (function () {
    var named;
    try { named = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'; } catch (e) { return 'UTC'; }
    var renamed = RENAMED[named];
    if (!renamed) return named;
    try { new Intl.DateTimeFormat('en', { timeZone: renamed }); return renamed; } catch (e) { return named; }
  })();
  var words = new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'medium', timeStyle: 'medium' });
  var wall = new Intl.DateTimeFormat('en-US', {
    timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
    hour: '2-digit', minute: '2-digit', second: '2-digit'
  });
  // The health chart's time axis: short labels, in the same zone as every other time on the page.
  var axis = {
    hour: new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    day: new Intl.DateTimeFormat('en-GB', {
      timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23'
    })
  };
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
    root.querySelectorAll('[data-axis-at]').forEach(function (el) {
      var d = new Date(el.getAttribute('data-axis-at'));
      var format = axis[el.getAttribute('data-axis-format')];
      if (format && !isNaN(d.getTime())) el.textContent = format.format(d);
    });
    // A filter typed in another zone (a link made by a browser elsewhere): its times are shown in this zone,
    // meaning the same instants, since the zone field below is set to this one.
    root.querySelectorAll('input[data-typed-instant]').forEach(function (el) {
      var typedIn = el.form && el.form.querySelector('input[data-zone-input]');
      if (!typedIn || typedIn.getAttribute('value') === zone) return;
      var d = new Date(el.getAttribute('data-typed-instant'));
      if (!isNaN(d.getTime())) { el.setAttribute('value', inputValue(d)); el.value = inputValue(d); }
    });
    root.querySelectorAll('[data-zone-name]').forEach(function (el) { el.textContent = zone; });
    root.querySelectorAll('input[data-zone-input]').forEach(function (el) { el.value = zone; });
    // A picker's starting value, given as an instant, shown as the wall-clock time of this zone.
    root.querySelectorAll('input[data-instant]').forEach(function (el) {
      var d = new Date(el.getAttribute('data-instant'));
      if (!isNaN(d.getTime())) { el.setAttribute('value', inputValue(d)); el.value = inputValue(d); }
    });
  }

  // Warn while typing when credentials would go to http:// (the stylesheet shows the chosen scheme's fields).
  function authForm(form) {
    var radios = form.querySelectorAll('input[name="auth_scheme"]');
    var url = form.querySelector('input[name="url"]');
    var tokenUrl = form.querySelector('input[name="oauth2_token_url"]');
    var warning = form.querySelector('[data-http-warning]');
    function plain(input) { return !!input && /^http:\/\//i.test(input.value.trim()); }
    function update() {
      var scheme = (form.querySelector('input[name="auth_scheme"]:checked') || {}).value || 'none';
      // The client secret of OAuth 2.0 goes to the token URL: in clear too when that is http://.
      if (warning) warning.hidden = !((scheme !== 'none' && plain(url)) || (scheme === 'oauth2' && plain(tokenUrl)));
    }
    radios.forEach(function (r) { r.addEventListener('change', update); });
    if (url) url.addEventListener('input', update);
    if (tokenUrl) tokenUrl.addEventListener('input', update);
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

  // The filter editor offers the fields of the kinds ticked (a field of no subscribed kind would be refused);
  // a field already chosen stays, so the form still shows what was asked, and the server says why it is refused.
  function filterFields(form) {
    var box = form.querySelector('[data-kinds]');
    var editor = form.querySelector('[data-filter-editor]');
    if (!box || !editor) return;
    function update() {
      var every = box.querySelector('input[name="events_all"]');
      var ticked = [];
      box.querySelectorAll('input[name="events"]').forEach(function (k) { if (k.checked) ticked.push(k.value); });
      editor.querySelectorAll('option[data-kinds]').forEach(function (option) {
        var kinds = option.getAttribute('data-kinds').split(' ');
        var wanted = (every && every.checked) || kinds.some(function (k) { return ticked.indexOf(k) >= 0; });
        var keep = wanted || option.selected;
        option.hidden = !keep;
        option.disabled = !keep;
      });
    }
    box.addEventListener('change', update);
    update();
  }

  function confirmations() {
    document.querySelectorAll('form[data-confirm]').forEach(function (form) {
      form.addEventListener('submit', function (event) {
        if (!window.confirm(form.getAttribute('data-confirm'))) event.preventDefault();
      });
    });
  }

  // A hook's page follows the hook (state, banner, held events, log and its paging, health), and the hooks
  // list its hooks' badges and held counts, without a reload. Polls are conditional (ETag): an unchanged page
  // answers 304 with no body. A part holding the focus or a typed value is left alone; a change of shape (a
  // hook suspended or re-enabled, a hook added to the list) reloads the page, so its actions match.
  function edited(part) {
    return Array.prototype.some.call(part.querySelectorAll('input:not([type="hidden"])'), function (el) {
      return el.type === 'checkbox' || el.type === 'radio' ? el.checked !== el.defaultChecked : el.value !== el.defaultValue;
    });
  }

  // What the server last sent for each live part, before localTimes rewrote its times into this zone: a
  // fresh answer is compared with it, not with the page, whose times differ from the server's in any zone
  // but UTC (comparing with the page rebuilt every part on the first answer, under the reader's eyes).
  var served = {};
  function rememberServed() {
    document.querySelectorAll('[data-live]:not(template)').forEach(function (part) {
      served[part.getAttribute('data-live')] = part.innerHTML;
    });
  }

  function livePage(box) {
    var url = box.getAttribute('data-live-url');
    var every = Number(box.getAttribute('data-live-every')) || 3000;
    // What the page was built for (a hook's state; the list's hooks): when the answer names another, the
    // page's actions no longer fit and it is loaded again.
    var shape = box.getAttribute('data-live-shape');
    var etag = null;
    var busy = false;
    function tick() {
      if (busy || document.hidden) return;
      busy = true;
      var headers = { Accept: 'text/html' };
      if (etag) headers['If-None-Match'] = etag;
      fetch(url, { credentials: 'same-origin', cache: 'no-store', headers: headers })
        .then(function (res) {
          if (res.status === 304) return;
          // The hook is gone (deleted elsewhere) or the session ended: its actions would all be refused, so the
          // page is loaded again and says so (deleted, not found, or the sign-in).
          if (res.status === 410 || res.status === 404 || res.status === 401) { window.location.reload(); return; }
          if (!res.ok) throw new Error('HTTP ' + res.status);
          var newShape = res.headers.get('X-Page-Shape');
          if (newShape && shape && newShape !== shape) { window.location.reload(); return; }
          var answerTag = res.headers.get('ETag');
          return res.text().then(function (text) {
            var holder = document.createElement('div');
            var left = false;
            holder.innerHTML = text;
            holder.querySelectorAll('template[data-live]').forEach(function (t) {
              var name = t.getAttribute('data-live');
              var part = document.querySelector('[data-live="' + name + '"]:not(template)');
              if (!part || served[name] === t.innerHTML) return;
              if (part.contains(document.activeElement) || edited(part)) { left = true; return; }
              part.innerHTML = t.innerHTML;
              served[name] = t.innerHTML;
              localTimes(part);
            });
            // A part left alone for the reader is still owed its change: the next poll asks unconditionally.
            etag = left ? null : answerTag;
          });
        })
        .catch(function () { /* a missed refresh is retried on the next tick */ })
        .then(function () { busy = false; box.setAttribute('data-refreshed', String(Date.now())); });
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
    rememberServed();
    localTimes(document);
    document.querySelectorAll('form[data-hook-form]').forEach(authForm);
    confirmations();
    document.querySelectorAll('[data-kinds]').forEach(kindChoices);
    document.querySelectorAll('form[data-hook-form]').forEach(filterFields);
    // After a refused form, the focus goes to the first field to fix (not left on the page's top); a group
    // marked as a whole (the filter's rows) cannot hold the focus, so its first control takes it.
    var invalid = document.querySelector('form [aria-invalid="true"]');
    if (invalid && invalid.tagName === 'FIELDSET')
      invalid = invalid.querySelector('input:not([type="hidden"]), select, textarea') || invalid;
    // After a change (POST, then the page it redirected to), the focus goes to the message saying what it did;
    // after a refusal with no field to fix (a stale edit), to the message saying why.
    var message = document.querySelector('[data-refusal]') || document.querySelector('[data-flash]');
    if (invalid) invalid.focus();
    else if (message) message.focus();
    document.querySelectorAll('[data-live-url]').forEach(livePage);
    // "Updates automatically" is true from here on, and only with this script running.
    document.querySelectorAll('[data-live-status]').forEach(function (status) { status.hidden = false; });
  });
})();
`;
