import { describe, expect, it } from 'vitest';
import { describeUserAgent, deviceOf } from './user-agent.js';

const IPHONE_18_1 =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

describe('user agents', () => {
  it('names a browser, system and model with their versions for the sessions list', () => {
    expect(describeUserAgent(IPHONE_18_1)).toEqual({
      browser: 'Mobile Safari 18',
      os: 'iOS 18.1',
      device: 'Apple iPhone',
    });
    expect(describeUserAgent(null)).toEqual({ browser: null, os: null, device: null });
  });

  it('keeps a device the same through updates, and tells two devices apart', () => {
    const a = deviceOf(IPHONE_18_1);
    expect(a.name).toBe('Mobile Safari on iOS (Apple iPhone)');
    expect(deviceOf(IPHONE_18_1.replaceAll('18_1', '18_2').replace('Version/18.1', 'Version/18.2')).key).toBe(a.key);
    expect(deviceOf('Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36').key).not.toBe(a.key);
    expect(deviceOf(undefined).name).toBe('an unknown device');
    expect(deviceOf('\u0000'.repeat(5000)).name.length).toBeLessThanOrEqual(120);
  });
});
