/**
 * A small page of the API's own, for a link followed from an e-mail (an unsubscribe asks, then says it is done): no
 * script, not indexed, readable on a phone. `title` and `body` are the product's own texts, never a visitor's.
 */
export const plainPage = (title: string, body: string) => `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${title} – Seatlink</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#0f172a}
button{font:inherit;padding:.5rem 1rem;border-radius:.5rem;border:0;background:#4f46e5;color:#fff;cursor:pointer}</style>
</head><body><h1>${title}</h1>${body}</body></html>`;
