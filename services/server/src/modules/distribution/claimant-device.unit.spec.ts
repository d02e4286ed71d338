import { describe, expect, it } from 'vitest';
import { judgeUserAgent } from './claimant-device.js';

const claimantDevice = (agent: string) => judgeUserAgent(agent).device;

const agents: Array<[string, string | null]> = [
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    'iPhone',
  ],
  [
    'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    'iPad',
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    'Android phone',
  ],
  [
    'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Android tablet',
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
    'Mac',
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Windows PC',
  ],
  ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Linux PC'],
  [
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Chromebook',
  ],
  ['curl-like/1.0', null],
  ['', null],
];

describe('claimantDevice', () => {
  it.each(agents)('names %s as %s', (agent, expected) => {
    expect(claimantDevice(agent)).toBe(expected);
  });

  it('answers no more than a short name for a huge or odd agent', () => {
    const name = claimantDevice(`Mozilla/5.0 (${'x'.repeat(100_000)}) \u0000\u202E`);
    expect(name === null || name.length <= 40).toBe(true);
  });
});

describe('judgeUserAgent', () => {
  it('judges bots and previews automated, browsers not, and no agent automated', () => {
    expect(judgeUserAgent('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)').automated).toBe(
      true,
    );
    expect(judgeUserAgent('WhatsApp/2.23.20.0 A').automated).toBe(true);
    expect(judgeUserAgent(agents[0]![0])).toEqual({ automated: false, device: 'iPhone' });
    expect(judgeUserAgent(undefined)).toEqual({ automated: true, device: null });
    expect(judgeUserAgent('')).toEqual({ automated: true, device: null });
  });

  it('gives the same verdict from its cache, and judges an agent too long to keep each time', () => {
    const agent = agents[2]![0];
    expect(judgeUserAgent(agent)).toBe(judgeUserAgent(agent));
    const huge = `Mozilla/5.0 (Windows NT 10.0; Win64; x64) ${'x'.repeat(5_000)}`;
    expect(judgeUserAgent(huge)).not.toBe(judgeUserAgent(huge));
    expect(judgeUserAgent(huge)).toEqual({ automated: false, device: 'Windows PC' });
  });
});
