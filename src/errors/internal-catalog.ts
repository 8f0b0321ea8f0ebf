import { entry } from './entry.ts';

/** The kit's own failures (PK9xx): bugs, never a problem of a packet. Never renumber or rename an entry. */
export const InternalErrors = {
  InternalError: entry<{ command: string; reason: string; report: string }>({
    code: 'PK901',
    name: 'InternalError',
    title: 'Internal error',
    severity: 'error',
    message: ({ command, reason, report }) => `packet ${command} stopped on an internal error (${reason}); the details are in ${report}.`,
    hint: () => 'This is a bug in packet-kit, not in your packets. Run the command again; if it happens again, report it with that file attached.',
  }),
} as const satisfies Record<string, ReturnType<typeof entry<any>>>;
