// Spindle console: renders the samples the server pushes over /events. Every value from the
// server is written with textContent or drawn on a canvas, never parsed as HTML.
'use strict';

const HISTORY = 60;                 // samples kept per source for the throughput line
const history = new Map();          // source name -> [done per second, ...]
const TIMELINE_MS = 30000;          // the task timeline shows the last 30 s
const TIMELINE_MAX = 2000;          // task runs kept per cluster at most
const runs = new Map();             // cluster name -> [{worker, start, end, failed}, ...] (wall ms)
const main = document.getElementById('sources');
const status = document.getElementById('status');
const COLORS = { busy: '#2f7de1', queue: '#e08a1e', steal: '#2aa876', park: '#b04fc9', line: '#1d2330' };

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function fmt(v) {
  if (v === null || v === undefined) return '–';
  if (Math.abs(v) >= 1e6) return (v / 1e6).toFixed(1) + 'M';
  if (Math.abs(v) >= 1e4) return (v / 1e3).toFixed(1) + 'k';
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

function card(src) {
  // compared as it is, not through a selector: CSS.escape writes a NUL as U+FFFD, so a name
  // holding one matched no card (a new card every sample) or another name's
  let c = [...main.children].find(e => e.dataset.name === src.name);
  if (c && c.dataset.built && src.kind !== 'error' && src.kind !== c.dataset.built) {
    // the name registered again for another kind of thing: the old card's charts and tables
    // would stay, never drawn again, beside the new kind's; a fresh card takes its place
    history.delete(src.name);
    runs.delete(src.name);
    const old = c;
    c = newCard(src);
    old.replaceWith(c);
  } else if (!c) {
    c = newCard(src);
    main.appendChild(c);
  }
  // the label follows the kind: a source whose first sample failed was labelled "error" for good
  c.dataset.kind = src.kind;
  c.querySelector('h2 .kind').textContent = src.kind;
  if (src.kind !== 'error') c.dataset.built = src.kind;   // what its charts and tables are for
  c.dataset.seen = '1';
  return c;
}

function newCard(src) {
  const c = el('section', 'card');
  c.dataset.name = src.name;
  const h = el('h2', null, src.name);
  h.appendChild(el('span', 'kind', src.kind));
  c.appendChild(h);
  c.appendChild(el('div', 'totals'));
  return c;
}

function totals(c, pairs) {
  const t = c.querySelector('.totals');
  t.replaceChildren();
  for (const [label, key, value] of pairs) {
    const s = el('span', null, label + ' ');
    const b = el('b', key, fmt(value));
    s.appendChild(b);
    t.appendChild(s);
  }
}

function canvas(c, cls, height) {
  let cv = c.querySelector('canvas.' + cls);
  if (!cv) {
    cv = el('canvas', cls);
    cv.height = height;
    c.appendChild(cv);
  }
  cv.width = Math.max(300, c.clientWidth - 28);
  return cv;
}

function legend(c, items) {
  if (c.querySelector('.legend')) return;
  const l = el('div', 'legend');
  for (const [label, color] of items) {
    const i = el('i');
    i.style.background = color;
    l.appendChild(i);
    l.appendChild(document.createTextNode(label));
  }
  c.appendChild(l);
}

// One group of bars per worker: busy share (0..1), and queue, steals/s, parks/s scaled to the
// largest of their kind in this sample.
function workerBars(cv, workers) {
  const g = cv.getContext('2d');
  g.clearRect(0, 0, cv.width, cv.height);
  const keys = [['busy', 'busy'], ['queued', 'queue'], ['stealsPerSec', 'steal'], ['parksPerSec', 'park']];
  const max = {};
  for (const [k] of keys) max[k] = k === 'busy' ? 1 : Math.max(1, ...workers.map(w => w[k] || 0));
  const n = Math.max(1, workers.length);
  const group = cv.width / n;
  const bar = Math.max(2, (group - 6) / keys.length);
  const h = cv.height - 14;
  g.font = '10px sans-serif';
  g.fillStyle = '#6b7386';
  workers.forEach((w, i) => {
    keys.forEach(([k, color], j) => {
      const v = Math.max(0, (w[k] || 0) / max[k]);
      g.fillStyle = COLORS[color];
      g.fillRect(i * group + 3 + j * bar, h - v * h, bar - 1, v * h);
    });
    g.fillStyle = '#6b7386';
    g.fillText((w.spare ? 's' : 'w') + w.index, i * group + 3, cv.height - 2);
  });
}

function line(cv, values) {
  const g = cv.getContext('2d');
  g.clearRect(0, 0, cv.width, cv.height);
  const max = Math.max(1, ...values);
  const top = 14;                   // room for the label above the line
  g.strokeStyle = COLORS.line;
  g.beginPath();
  const step = cv.width / (HISTORY - 1);
  values.forEach((v, i) => {
    const x = cv.width - (values.length - 1 - i) * step;   // newest at the right edge
    const y = cv.height - 2 - (v / max) * (cv.height - top - 2);
    if (i === 0) g.moveTo(x, y); else g.lineTo(x, y);
  });
  g.stroke();
  g.fillStyle = '#6b7386';
  g.font = '10px sans-serif';
  g.textAlign = 'left';
  g.fillText('per second, last ' + HISTORY + ' samples; peak ' + fmt(max), 4, 10);
}

function remember(name, value) {
  const h = history.get(name) || [];
  h.push(value || 0);
  if (h.length > HISTORY) h.shift();
  history.set(name, h);
  return h;
}

function scheduler(src) {
  const c = card(src);
  const busy = src.workers.filter(w => w.busy !== null);
  const avgBusy = busy.length ? busy.reduce((a, w) => a + w.busy, 0) / busy.length : null;
  totals(c, [
    ['workers', 'live', src.live], ['active', 'active', src.active], ['done/s', 'done-rate', src.donePerSec],
    ['done', 'completed', src.completed + src.polls], ['queued', 'queued', src.queued],
    ['steals/s', 'steal-rate', src.stealsPerSec], ['parks/s', 'park-rate', src.parksPerSec],
    ['busy %', 'busy', avgBusy === null ? null : Math.round(avgBusy * 100)],
    ['rejected', 'rejected', src.rejected], ['failed', 'failed', src.failed]]);
  workerBars(canvas(c, 'workers', 90), src.workers);
  legend(c, [['busy share', COLORS.busy], ['queue depth', COLORS.queue], ['steals/s', COLORS.steal], ['parks/s', COLORS.park]]);
  line(canvas(c, 'history', 50), remember(src.name, src.donePerSec));
  if (src.longestPolls) {           // an async runtime with task statistics
    taskTable(c, 'longest-polls', 'tasks with the longest polls', src.longestPolls);
    taskTable(c, 'most-woken', 'tasks with the most wake-ups', src.mostWoken);
  }
}

function duration(nanos) {
  if (nanos >= 1e9) return (nanos / 1e9).toFixed(2) + ' s';
  if (nanos >= 1e6) return (nanos / 1e6).toFixed(1) + ' ms';
  return (nanos / 1e3).toFixed(1) + ' µs';
}

// A table of tasks (the server sends the top few). Class names and spawn sites come from the
// application: written with textContent only, like everything else.
function taskTable(c, cls, caption, tasks) {
  let t = c.querySelector('table.' + cls);
  if (!t) {
    t = el('table', 'tasks ' + cls);
    t.appendChild(el('caption', null, caption));
    const head = el('tr');
    for (const h of ['id', 'task', 'spawned at', 'polls', 'longest', 'mean', 'wakes']) head.appendChild(el('th', null, h));
    t.appendChild(el('thead')).appendChild(head);
    t.appendChild(el('tbody'));
    c.appendChild(t);
  }
  t.tBodies[0].replaceChildren(...tasks.map(k => {
    const r = el('tr', 'task');
    r.dataset.id = String(k.id);
    for (const v of [String(k.id), k.taskClass, k.spawnSite || '–', fmt(k.polls), duration(k.longestNanos),
      duration(k.meanNanos), fmt(k.wakes)]) r.appendChild(el('td', null, v));
    return r;
  }));
  t.dataset.empty = tasks.length ? '' : 'no task';
}

function actors(src) {
  const c = card(src);
  totals(c, [['messages/s', 'message-rate', src.messagesPerSec], ['messages', 'messages', src.messages],
    ['dead letters', 'dead', src.deadLetters], ['live actors', 'live', src.liveActors]]);
  line(canvas(c, 'history', 50), remember(src.name, src.messagesPerSec));
  // the deepest mailboxes now (the server sends a few); a capped count is a lower bound
  let list = c.querySelector('ol.mailboxes');
  if (!list) { list = el('ol', 'mailboxes'); c.appendChild(list); }
  list.replaceChildren(...src.mailboxes.map(m =>
    el('li', null, m.actor + '  ' + (m.capped ? '≥ ' : '') + fmt(m.depth) + ' waiting')));
  list.dataset.empty = src.mailboxes.length ? '' : 'no message waiting';
}

function cluster(src, time) {
  const c = card(src);
  if (src.closed) { totals(c, [['closed', 'closed', 1]]); return; }
  // the cluster's own total: the workers' sum falls when one restarts under its id
  totals(c, [['executed', 'executed', src.tasksExecuted], ['in memory', 'memory', src.inMemory], ['erred', 'erred', src.erred],
    ['awaiting a worker', 'awaiting', src.awaitingWorker], ['cancelled', 'cancelled', src.cancelled],
    ['steals', 'steals', src.stealsConfirmed], ['bytes moved', 'bytes', src.bytesTransferred]]);
  const bars = src.workers.map(w => ({ index: w.id, busy: w.occupancy, queued: w.processing, stealsPerSec: 0, parksPerSec: 0 }));
  workerBars(canvas(c, 'workers', 70), bars);
  legend(c, [['occupancy', COLORS.busy], ['processing', COLORS.queue]]);
  const tl = canvas(c, 'timeline', 0);
  tl.height = 16 + 14 * src.workers.length;   // a lane per worker, as many as there are now
  // the runs' times are before the sample was taken, which may be a while before it arrived (a
  // stream catching up on samples it fell behind by): counted back from the time it was taken
  timeline(tl, src, time);
  let list = c.querySelector('ol.steals');
  if (!list) { list = el('ol', 'steals'); c.appendChild(list); }
  for (const e of src.steals) {
    list.insertBefore(el('li', null, e.key + '  ' + e.victim + ' → ' + e.thief + '  ' + e.outcome.toLowerCase()), list.firstChild);
  }
  while (list.children.length > 50) list.removeChild(list.lastChild);
}

// Which worker ran which task, when: one lane per worker, a bar per run over the last 30 s
// (failed runs in red). Runs come with the sample as milliseconds before it; kept bounded. now:
// when the sample was taken, by the console's clock, which every run and the view are placed by.
function timeline(cv, src, now) {
  const kept = (runs.get(src.name) || []).filter(r => r.end > now - TIMELINE_MS);
  for (const t of src.tasks) {
    kept.push({ worker: t.worker, start: now - t.startAgoMs, end: now - t.endAgoMs, failed: t.failed });
  }
  runs.set(src.name, kept.slice(-TIMELINE_MAX));
  const g = cv.getContext('2d');
  g.clearRect(0, 0, cv.width, cv.height);
  const left = 28, lane = 14, scale = (cv.width - left) / TIMELINE_MS;
  g.font = '10px sans-serif';
  src.workers.forEach((w, i) => {
    g.fillStyle = '#6b7386';
    g.fillText('w' + w.id, 2, 12 + i * lane);
  });
  for (const r of runs.get(src.name)) {
    const i = src.workers.findIndex(w => w.id === r.worker);
    if (i < 0) continue;
    const x = left + Math.max(0, r.start - (now - TIMELINE_MS)) * scale;
    const x2 = left + (r.end - (now - TIMELINE_MS)) * scale;
    g.fillStyle = r.failed ? '#d64545' : COLORS.busy;
    g.fillRect(x, 3 + i * lane, Math.max(1, x2 - x), lane - 4);
  }
  g.fillStyle = '#6b7386';
  g.textAlign = 'right';
  g.fillText('task runs, last ' + TIMELINE_MS / 1000 + ' s', cv.width - 2, cv.height - 2);
  g.textAlign = 'left';
}

function errorCard(src) {
  totals(card(src), [['error: ' + src.error, 'error', null]]);
}

function render(sample) {
  for (const c of main.children) c.dataset.seen = '';
  for (const src of sample.sources) {
    if (src.kind === 'scheduler') scheduler(src);
    else if (src.kind === 'actors') actors(src);
    else if (src.kind === 'cluster') cluster(src, sample.time);
    else errorCard(src);
  }
  for (const c of [...main.children]) if (!c.dataset.seen) c.remove();
  // a source no longer sent (unregistered) loses its history and runs with its card: kept by
  // name, those of every source ever shown stayed while the page was open
  const sent = new Set(sample.sources.map(src => src.name));
  for (const kept of [history, runs]) {
    for (const name of [...kept.keys()]) if (!sent.has(name)) kept.delete(name);
  }
  status.textContent = 'live · ' + new Date(sample.time).toLocaleTimeString();
  status.className = 'status live';
}

// The browser reconnects a stream that dropped by itself, but not one the console answered with
// an error (503 while every stream it allows is open, say): that one is opened again here, after
// a delay that doubles up to half a minute, so the page does retry as it says.
let retryMs = 1000;
function connect() {
  const events = new EventSource('events' + window.location.search);
  events.onopen = () => { retryMs = 1000; };
  events.onmessage = m => render(JSON.parse(m.data));
  events.onerror = () => {
    status.textContent = 'disconnected, retrying…';
    status.className = 'status';
    if (events.readyState === EventSource.CLOSED) {
      setTimeout(connect, retryMs);
      retryMs = Math.min(2 * retryMs, 30000);
    }
  };
}
connect();
