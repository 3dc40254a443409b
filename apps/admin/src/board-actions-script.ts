// Runs on Bull Board's page (loaded after Bull Board's own scripts, same origin, so the CSP allows it). On a hook
// queue's page it shows the hook's state and the one action that applies: Pause, or Resume. It lives outside
// Bull Board's React root, so Bull Board never re-renders or removes it. Embedded as a module so the build is
// just `tsc`.
export const BOARD_ACTIONS_SCRIPT = String.raw`
(function () {
  'use strict';
  var script = document.currentScript;
  var board = script && script.getAttribute('data-board');
  if (!board) return;
  var QUEUE_PAGE = board + '/queue/';
  var panel, title, state, button, status;
  var shown = null;
  var label = '';
  var paused = null;
  var busy = false;

  function currentQueue() {
    var path = location.pathname;
    if (path.indexOf(QUEUE_PAGE) !== 0) return null;
    try {
      return decodeURIComponent(path.slice(QUEUE_PAGE.length).split('/')[0]) || null;
    } catch (e) {
      return null;
    }
  }

  function element(tag, style, parent) {
    var el = document.createElement(tag);
    for (var key in style) el.style[key] = style[key];
    parent.appendChild(el);
    return el;
  }

  function build() {
    panel = document.createElement('section');
    panel.id = 'hookline-queue-actions';
    panel.setAttribute('aria-label', 'Hook queue');
    var box = {
      position: 'fixed', right: '1rem', bottom: '1rem', zIndex: '1000', maxWidth: '28rem',
      display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '0.35rem 0.9rem',
      padding: '0.75rem 1rem', borderRadius: '0.5rem', font: 'inherit', fontSize: '0.9rem',
      background: 'var(--card, #fff)', color: 'var(--card-foreground, #111)',
      border: '1px solid var(--border, #d0d7de)', boxShadow: '0 4px 16px rgba(0, 0, 0, 0.25)'
    };
    for (var key in box) panel.style[key] = box[key];
    var text = element('div', { flex: '1 1 12rem' }, panel);
    title = element('strong', {}, text);
    title.setAttribute('data-hook-state', '');
    state = element('span', { marginLeft: '0.4rem', opacity: '0.8' }, text);
    button = element('button', {
      font: 'inherit', fontWeight: '600', padding: '0.4rem 1rem', borderRadius: '0.375rem', cursor: 'pointer',
      border: '1px solid transparent', background: 'var(--primary, #2563eb)',
      color: 'var(--primary-foreground, #fff)'
    }, panel);
    button.type = 'button';
    button.addEventListener('click', act);
    status = element('p', { flex: '1 1 100%', margin: '0' }, panel);
    status.setAttribute('role', 'status');
    document.body.appendChild(panel);
  }

  function render() {
    if (!shown || paused === null) {
      if (panel) panel.style.display = 'none';
      return;
    }
    if (!panel) build();
    panel.style.display = 'flex';
    title.textContent = paused ? 'Suspended' : 'Active';
    state.textContent = paused ? 'new events are held, nothing is sent' : 'events are delivered';
    button.textContent = paused ? 'Resume' : 'Pause';
    button.setAttribute('aria-label', (paused ? 'Resume ' : 'Pause ') + label);
    button.disabled = busy;
  }

  function call(method, path, body) {
    var headers = { Accept: 'application/json' };
    if (body) headers['Content-Type'] = 'application/json';
    return fetch(board + path, {
      method: method,
      credentials: 'same-origin',
      headers: headers,
      body: body ? JSON.stringify(body) : undefined
    }).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (body) {
        if (!res.ok) throw new Error((body.error && body.error.message) || 'HTTP ' + res.status);
        return body;
      });
    });
  }

  function refresh() {
    var name = currentQueue();
    if (name !== shown) {
      shown = name;
      paused = null;
      if (status) status.textContent = '';
      render();
    }
    if (!name || busy || document.hidden) return;
    call('GET', '/hookline/queues/' + encodeURIComponent(name)).then(function (body) {
      if (shown !== name || busy) return;
      label = body.display_name || body.name;
      paused = body.paused === true;
      render();
    }, function () {
      // Not a hook queue (or no longer there): no buttons.
      if (shown === name) paused = null;
      render();
    });
  }

  function act() {
    var name = shown;
    var action = paused ? 'resume' : 'pause';
    var reason = null;
    if (paused) {
      if (!window.confirm('Resume ' + label + '? Its held events are delivered, in order.')) return;
    } else {
      // The customer reads this reason on the hook's page; only an admin can resume the hook.
      reason = window.prompt('Pause ' + label + '? It is suspended: nothing more is sent and new events are held ' +
        'until an admin resumes it (the customer cannot).\n\nThe reason the customer reads:', '');
      if (reason === null) return;
    }
    busy = true;
    status.textContent = '';
    render();
    call('PUT', '/api/queues/' + encodeURIComponent(name) + '/' + action, reason ? { reason: reason } : null).then(function (body) {
      paused = body.paused === true;
      status.textContent = paused ? 'Paused: the hook is suspended.' : 'Resumed: held events are being delivered.';
    }, function (error) {
      status.textContent = 'Could not ' + action + ': ' + error.message;
    }).then(function () {
      busy = false;
      render();
    });
  }

  // Bull Board is a single-page app: follow its navigation, and refresh the state every few seconds.
  var lastPath = null;
  var lastCheck = 0;
  setInterval(function () {
    var now = Date.now();
    if (location.pathname === lastPath && now - lastCheck < 5000) return;
    lastPath = location.pathname;
    lastCheck = now;
    refresh();
  }, 250);
})();
`;
