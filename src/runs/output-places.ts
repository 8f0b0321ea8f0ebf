/**
 * The files and folders `packet report` and `packet merge-reports` write, tried before the work
 * starts, and a file system fault met while writing them told as their coded error (PK492), not
 * as a bug.
 */
import path from 'node:path';
import { diagnose } from '../errors/catalog.ts';
import { fsFault, type FsFault } from '../errors/fs-fault.ts';
import { RehearsalRunErrors } from '../errors/judge-catalog.ts';
import { folderFault } from './output-folder.ts';
import { diagnosticText } from './reporter.ts';

/** A place a command writes: a folder it fills, or a file it writes whole. */
export interface OutputPlace {
  at: string;
  folder: boolean;
  /** e.g. "the report folder". */
  what: string;
  /** The flag that chooses it, e.g. "--out DIR". */
  flag: string;
}

/** A place and what stops it being written. */
export interface PlaceFault {
  place: OutputPlace;
  fault: FsFault;
}

/** The first place that cannot be written (its folder made, a file written and removed in it), or undefined. */
export async function placesFault(places: readonly OutputPlace[]): Promise<PlaceFault | undefined> {
  for (const place of places) {
    const fault = await folderFault(place.folder ? place.at : path.dirname(place.at));
    if (fault) return { place, fault };
  }
  return undefined;
}

/** The place a thrown error is a file system fault of (its path in or above the place), or undefined: anything else stays a bug. */
export function faultAt(places: readonly OutputPlace[], err: unknown): PlaceFault | undefined {
  const fault = fsFault(err);
  if (!fault?.path) return undefined;
  const p = path.resolve(fault.path);
  const place = places.find(({ at, folder }) => p === at || at.startsWith(`${p}${path.sep}`) || (folder ? p.startsWith(`${at}${path.sep}`) : p.startsWith(`${at}.`)));
  return place ? { place, fault } : undefined;
}

/** The coded error (PK492) of `command` for a place that cannot be written, as the run commands print it. */
export function unwritableText(command: string, { place, fault }: PlaceFault, cwd: string): string {
  const shown = path.relative(cwd, place.at) || place.at;
  return diagnosticText(
    diagnose(RehearsalRunErrors.ReportOutUnwritable, { file: shown }, { command, what: place.what, place: place.folder ? `${shown}/` : shown, reason: fault.reason, fix: fault.fix, flag: place.flag }),
  );
}
