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

  // Bull Board's icon buttons have no accessible name, its logo repeats the name beside it, and its pages have
  // no h1: hookline names them (by their icon) so screen readers, and axe, can tell them apart.
  var ICON_NAMES = {
    maximize: 'Full screen', minimize: 'Leave full screen', settings: 'Settings', 'ellipsis-vertical': 'More actions',
    ellipsis: 'More actions', 'arrow-down-wide-narrow': 'Sort queues', 'arrow-up-down': 'Sort queues',
    'list-filter': 'Filter queues', search: 'Search', sun: 'Light mode', moon: 'Dark mode', 'refresh-cw': 'Refresh'
  };
  function nameOf(button) {
    if (button.querySelector('svg[width="42"]')) return 'Redis details';
    var icon = button.querySelector('svg[class*="lucide-"]');
    var match = icon && /lucide-([a-z-]+)/.exec(icon.getAttribute('class').replace('lucide lucide-', 'lucide-'));
    return (match && ICON_NAMES[match[1]]) || (match ? match[1].replace(/-/g, ' ') : 'Menu');
  }
  function accessible() {
    document.querySelectorAll('button').forEach(function (b) {
      if (!b.getAttribute('aria-label') && !(b.innerText || '').trim()) b.setAttribute('aria-label', nameOf(b));
    });
    document.querySelectorAll('svg[role="img"]:not([aria-label])').forEach(function (svg) {
      svg.setAttribute('aria-hidden', 'true');
      svg.removeAttribute('role');
    });
    document.querySelectorAll('a img[alt]').forEach(function (img) {
      if (img.alt && img.parentElement.textContent.trim() === img.alt) img.alt = '';
    });
    // Under the page's h1, every heading Bull Board draws (h3–h5, by its looks) is a section's: level 2.
    document.querySelectorAll('h3, h4, h5, h6').forEach(function (h) {
      if (!h.getAttribute('aria-level')) h.setAttribute('aria-level', '2');
    });
    if (!document.getElementById('hookline-a11y-style')) {
      var style = document.createElement('style');
      style.id = 'hookline-a11y-style';
      // Bull Board's grey for empty values and its key hints are below AA contrast, and so are its reds: the
      // overview's failed count (#ef4444 on white, 3.8:1) and a failed job's reason (#d5433c on its grey card,
      // 3.8:1), on the queues of failing hooks, the very ones an admin opens. #b91c1c reaches 6.5:1 and 5.5:1.
      style.textContent =
        '[class*="nullValue"]{color:#57606a !important}[class*="description-"],[class*="description-"] small,main small{color:#24292f !important;opacity:1 !important}kbd{color:#24292f !important;background:#f6f8fa !important}' +
        '[class*="flagAlert"],main .error{color:#b91c1c !important}' +
        // A queue card's job count is a button 19 px high: 24 px at least, as the website's targets (WCAG 2.5.8).
        'main button[class*="trigger"]{min-height:24px !important}';
      document.head.appendChild(style);
    }
    var main = document.querySelector('main');
    if (main && !document.querySelector('h1')) {
      var h1 = document.createElement('h1');
      h1.textContent = 'Bull Board: hook queues';
      h1.style.cssText = 'position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap';
      main.insertBefore(h1, main.firstChild);
    }
  }
  var pending = false;
  new MutationObserver(function () {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; accessible(); });
  }).observe(document.body, { childList: true, subtree: true });
  accessible();

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
