const { chromium } = require('playwright-core');
const fs = require('fs');
function cpu() { let t = 0; for (const pid of fs.readdirSync('/proc')) { if (!/^\d+$/.test(pid)) continue; try { const c = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'); if (!c.includes('chromium')) continue; const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); t += +s[11] + +s[12]; } catch {} } return t; }
const http = require('http');
const srv = http.createServer((q, r) => { r.setHeader('content-type','text/html'); r.end('<!doctype html><title>x</title><h1>hi</h1><p>' + 'text '.repeat(200)); }).listen(0, '127.0.0.1', async () => {
  const url = `http://127.0.0.1:${srv.address().port}/`;
  const extra = process.argv.slice(2);
  const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', ...extra];
  const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: flags });
  let c0 = cpu(), t = Date.now();
  const ctx = await b.newContext(); const page = await ctx.newPage(); await page.goto(url);
  console.log('ctx+page+goto', Date.now() - t, 'ms', cpu() - c0, 'ticks');
  c0 = cpu(); t = Date.now(); for (let i = 0; i < 5; i++) await page.goto(url + i);
  console.log('5 gotos same page', Date.now() - t, 'ms', cpu() - c0, 'ticks');
  c0 = cpu(); t = Date.now(); for (let i = 0; i < 5; i++) { const c = await b.newContext(); const p = await c.newPage(); await p.goto(url); await c.close(); }
  console.log('5 ctx', Date.now() - t, 'ms', cpu() - c0, 'ticks');
  c0 = cpu(); t = Date.now(); await page.screenshot({ fullPage: true }); console.log('screenshot', Date.now() - t, 'ms', cpu() - c0);
  c0 = cpu(); t = Date.now(); await new Promise(r => setTimeout(r, 5000)); console.log('idle 5s', cpu() - c0, 'ticks');
  await b.close(); srv.close();
});
