import type { Diagnostic } from './diagnostic.ts';

/** A fatal condition: the run cannot go on. Carries a diagnostic from the catalog. */
export class PacketKitError extends Error {
  readonly diagnostic: Diagnostic;

  constructor(diagnostic: Diagnostic) {
    super(`${diagnostic.code} ${diagnostic.message}`);
    this.name = 'PacketKitError';
    this.diagnostic = diagnostic;
  }
}
