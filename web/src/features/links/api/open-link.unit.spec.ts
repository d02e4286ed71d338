import { describe, expect, it } from 'vitest';
import { referrerOf } from './open-link';

const PAGE = 'https://app.seatlink.test/l/AbCdEfGhIjKlMnOpQrStUv';

describe('the referrer an open sends', () => {
  it("is the referring page's host name, never its path or query", () => {
    expect(referrerOf(PAGE, 'https://l.Instagram.com/?u=secret&e=1')).toBe('l.instagram.com');
    expect(referrerOf(PAGE, 'https://www.facebook.com/messages/t/123')).toBe('www.facebook.com');
  });

  it('is a ?ref= or utm_source token when the address has one', () => {
    expect(referrerOf(`${PAGE}?ref=Newsletter`, 'https://mail.google.com/')).toBe('newsletter');
    expect(referrerOf(`${PAGE}?utm_source=sms_campaign`, '')).toBe('sms_campaign');
  });

  it('is none without a referrer, from the page itself, or when the token is not plain', () => {
    expect(referrerOf(PAGE, '')).toBeNull();
    expect(referrerOf(PAGE, 'https://app.seatlink.test/dashboard')).toBeNull();
    expect(referrerOf(`${PAGE}?ref=${encodeURIComponent('evil\u202Etxt')}`, '')).toBeNull();
    expect(referrerOf(`${PAGE}?ref=${'x'.repeat(300)}`, '')).toBeNull();
    expect(referrerOf(PAGE, 'not a url')).toBeNull();
  });
});
