/**
 * The baselines of the browser benchmarks: plain static pages, no framework, served on this machine by the bench
 * itself, measured in the same browser, in the same run, the same way as the product.
 *
 * - `/scroll?height=N`: a page N px tall of plain text rows (the dashboard's scroll height);
 * - `/search`: a plain input whose `input` handler writes the query into a short list (plain DOM);
 * - `/sort`: a table of 20 rows and a button whose `click` handler reverses them (plain DOM);
 * - `/`: a plain document for Lighthouse (title, description, one heading, a paragraph), and `/robots.txt`.
 */
import { createServer, type Server } from 'node:http';

export interface PlainPages {
  url: string;
  close(): Promise<void>;
}

const head = (title: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
  `<meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<meta name="description" content="A plain static page: the baseline of a benchmark.">` +
  `<link rel="icon" href="data:,">` +
  `<title>${title}</title><style>body{margin:0;font:14px/1.4 sans-serif;color:#111}` +
  `.row{height:99px;border-bottom:1px solid #ddd;padding:0 16px}</style></head>`;

function scrollPage(height: number): string {
  const rows = Math.max(1, Math.ceil(height / 100));
  let body = '';
  for (let i = 0; i < rows; i++) body += `<div class="row"><p>Row ${i + 1}: plain text, nothing else.</p></div>`;
  return `${head('Plain scroll')}<body><main>${body}</main></body></html>`;
}

const WORDS = Array.from({ length: 20 }, (_, i) => `Item ${i + 1}`);

const searchPage = () =>
  `${head('Plain search')}<body><main><label>Search <input id="q" type="search" autocomplete="off"></label>` +
  `<ul id="list">${WORDS.map((w) => `<li>${w}</li>`).join('')}</ul></main><script>
const q = document.getElementById('q');
const list = document.getElementById('list');
q.addEventListener('input', () => {
  list.firstElementChild.textContent = 'Query: ' + q.value;
});
</script></body></html>`;

const sortPage = () =>
  `${head('Plain sort')}<body><main><button id="sort" type="button">Sort</button>` +
  `<table><tbody id="rows">${WORDS.map((w) => `<tr><td>${w}</td></tr>`).join('')}</tbody></table></main><script>
const rows = document.getElementById('rows');
document.getElementById('sort').addEventListener('click', () => {
  rows.replaceChildren(...[...rows.children].reverse());
});
</script></body></html>`;

const documentPage = () =>
  `${head('Plain page')}<body><main><h1>A plain page</h1>` +
  `<p>Static text served as it is: no script, no style sheet to fetch, no image.</p></main></body></html>`;

export async function startPlainPages(): Promise<PlainPages> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const send = (type: string, body: string) => {
      res.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (url.pathname === '/scroll') return send('text/html', scrollPage(Number(url.searchParams.get('height')) || 0));
    if (url.pathname === '/search') return send('text/html', searchPage());
    if (url.pathname === '/sort') return send('text/html', sortPage());
    if (url.pathname === '/robots.txt') return send('text/plain', 'User-agent: *\nAllow: /\n');
    if (url.pathname === '/') return send('text/html', documentPage());
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://localhost:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
