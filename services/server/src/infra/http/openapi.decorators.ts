import { SetMetadata } from '@nestjs/common';

export const DEPRECATED_PREFIXES = 'seatlink:deprecated-prefixes';

/**
 * The controller's paths under these of its prefixes are old names kept for one version: they work as before, and
 * the API document marks them deprecated beside the current path.
 */
export const DeprecatedPrefixes = (...prefixes: string[]) => SetMetadata(DEPRECATED_PREFIXES, prefixes);
