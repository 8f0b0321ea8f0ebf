/**
 * The rubric page's scoring card in the browser: one draft per submission (its sha256, or the
 * candidate's name on a blank card), a batch of `packet grade` as a queue, the grader's evidence
 * beside each row, overrides of automatic rows with their reason, blind review and the sheets of
 * other reviewers combined by the rubric's rule once this reviewer's card is exported.
 */
import { showControls } from '../errors/escape.ts';
import { combineScores, DEFAULT_COMBINE } from '../judge/combine.ts';
import { decisionSoFar } from './decision-so-far.ts';
import { downloadJson } from './download-json.ts';
import { isGradeSummary, readGradeSummary, type QueueItem } from './grade-queue.ts';
import {
  blindLabel,
  cardOwnFindings,
  completeScores,
  decisionHeadline,
  draftIdOf,
  draftKey,
  isBlankSheet,
  readImport,
  readScoredSheet,
  sheetGraded,
  sheetGradedRefusal,
  scoredSheet,
  scoredSheetFileName,
  type GraderEvidence,
  type ReadSheetResult,
  type ScoredSheet,
  type ScoringCard,
  type SheetOverride,
  type SheetSubmission,
} from './scored-sheet.ts';

type SheetRead = Extract<ReadSheetResult, { ok: true }>;

/** What a scorecard brought to the card. */
interface Graded {
  submission?: SheetSubmission;
  evidence: Record<string, string>;
  caps: Record<string, { mode: string; max: number }>;
  /** The scorecard's score of each automatic row, the baseline of an override. */
  auto: Record<string, number>;
  verdict: string;
  grader?: GraderEvidence;
}

/** A draft as the browser keeps it. */
interface Draft {
  sheet: ScoredSheet;
  auto?: Record<string, number>;
  grader?: GraderEvidence;
  /** When this reviewer exported the card (ISO). */
  exported?: string;
}

/** Another reviewer's sheet of the same submission. */
interface OtherSheet {
  reviewer: string;
  scores: Record<string, number>;
}

const UNNAMED = 'unnamed:';
/** A card that names no one yet gets a draft of its own, never another unnamed card's. */
const freshUnnamed = () => `${UNNAMED}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Storage that may be off (private windows): every call is safe. */
const storage = {
  get(key: string): string | null {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string) {
    try {
      localStorage.setItem(key, value);
    } catch {
      /* no storage: the card still works, it is just not kept */
    }
  },
  remove(key: string) {
    try {
      localStorage.removeItem(key);
    } catch {
      /* nothing kept */
    }
  },
  keys(prefix: string): string[] {
    try {
      return Object.keys(localStorage).filter((k) => k.startsWith(prefix));
    } catch {
      return [];
    }
  },
};

const parse = <T>(text: string | null): T | undefined => {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
};

const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** Text from a submission or a sheet, as the page shows it: no control or bidi character hides or reorders what is around it. */
const shown = (s: string) => showControls(s);

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, attrs: Record<string, string> = {}) => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = shown(text);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
};

export function startRubricPage(form: HTMLFormElement): void {
  const card = JSON.parse(form.dataset.scoringCard ?? '{}') as ScoringCard;
  const rows = card.rubric.rows;
  const q = <T extends HTMLElement>(sel: string) => form.querySelector<T>(sel)!;
  const totalOut = q<HTMLOutputElement>('[data-total]');
  const decisionBox = q('[data-decision]');
  const decisionOut = q<HTMLOutputElement>('[data-decision-text]');
  const stickyBar = q('[data-sticky-tally]');
  const sheetStatus = q('[data-sheet-status]');
  const fileInput = q<HTMLInputElement>('[data-import]');
  const othersInput = q<HTMLInputElement>('[data-import-others]');
  const blindBox = q<HTMLInputElement>('[data-blind]');
  const clearDialog = q<HTMLDialogElement>('[data-clear-dialog]');
  const replaceDialog = q<HTMLDialogElement>('[data-replace-dialog]');
  const overrideDialog = q<HTMLDialogElement>('[data-override-dialog]');
  const overrideReason = q<HTMLTextAreaElement>('[data-override-reason]');
  const text = (name: string) => form.elements.namedItem(name) as HTMLInputElement;
  const noteFields = [...form.querySelectorAll<HTMLTextAreaElement>('[data-note]')];
  const prefix = draftKey(card);
  const keyOf = (id: string) => `${prefix}:draft:${id}`;
  const say = (message: string, tone: 'ok' | 'error' | '' = '') => {
    sheetStatus.textContent = shown(message);
    sheetStatus.dataset.tone = tone;
  };

  // The card on the form.
  const empty = (): Graded => ({ evidence: {}, caps: {}, auto: {}, verdict: '' });
  let graded: Graded = empty();
  let overrides: SheetOverride[] = [];
  let draftId: string = freshUnnamed();
  let exported: string | undefined;
  let lastScores: Record<string, number | undefined> = {};
  let blind = storage.get(`${prefix}:blind`) === 'on';
  let queue: QueueItem[] = parse<QueueItem[]>(storage.get(`${prefix}:queue`)) ?? [];

  const currentScores = () => {
    const scores: Record<string, number | undefined> = {};
    for (const row of rows) {
      const checked = form.querySelector<HTMLInputElement>(`input[name="row-${row.id}"]:checked`);
      scores[row.id] = checked ? Number(checked.value) : undefined;
    }
    return scores;
  };
  const currentNotes = () => Object.fromEntries(noteFields.map((f) => [f.dataset.note!, f.value]));
  const currentSheet = (date = new Date()) =>
    scoredSheet(card, currentScores(), {
      date,
      candidate: text('candidate').value,
      reviewer: text('reviewer').value,
      scoredOn: text('scoredOn').value,
      notes: currentNotes(),
      ...(graded.submission ? { submission: graded.submission } : {}),
      evidence: graded.evidence,
      caps: graded.caps,
      overrides,
      blind: blind && Boolean(graded.submission?.sha256),
      verdict: graded.verdict,
    });
  const hidesName = () => blind && Boolean(graded.submission?.sha256) && !exported;

  // Drafts: one per submission.
  const readDraft = (id: string): Draft | undefined => {
    const d = parse<Draft>(storage.get(keyOf(id)));
    return d && typeof d.sheet === 'object' ? d : undefined;
  };
  const draftIds = () => storage.keys(`${prefix}:draft:`).map((k) => k.slice(`${prefix}:draft:`.length));
  const saveDraft = () => {
    const sheet = currentSheet();
    let id = draftIdOf(sheet) ?? (draftId.startsWith(UNNAMED) ? draftId : freshUnnamed());
    if (id !== draftId && readDraft(id)) {
      // Another card has that name: this one stays a card of its own, so nothing scored on it is lost.
      say(`You already have a card for "${sheet.candidate}" in this browser: this card is kept as a card of its own in the list of your cards; open the other one there, or give this one another name.`, 'error');
      id = draftId;
    }
    if (id !== draftId) {
      storage.remove(keyOf(draftId));
      draftId = id;
    }
    if (isBlankSheet(sheet) && !graded.submission) storage.remove(keyOf(draftId));
    else storage.set(keyOf(draftId), JSON.stringify({ sheet, auto: graded.auto, ...(graded.grader ? { grader: graded.grader } : {}), ...(exported ? { exported } : {}) } satisfies Draft));
    storage.set(`${prefix}:current`, draftId);
    renderLists();
  };

  const othersKey = () => `${prefix}:others:${draftId}`;
  const readOthers = () => parse<OtherSheet[]>(storage.get(othersKey())) ?? [];

  /** A clean form: no tick, note, name, evidence, override or other reviewer of the card before. */
  const resetForm = () => {
    form.reset();
    blindBox.checked = blind;
    graded = empty();
    overrides = [];
    exported = undefined;
    draftId = freshUnnamed();
    text('scoredOn').value = today();
    // The reviewer is the same person from card to card in this browser.
    text('reviewer').value = storage.get(`${prefix}:reviewer`) ?? '';
  };

  /** Put a sheet or a scorecard on a clean form. */
  const apply = (sheet: SheetRead, extra: { auto?: Record<string, number>; grader?: GraderEvidence; exported?: string } = {}) => {
    resetForm();
    const auto = extra.auto ?? (sheet.fromScorecard ? { ...sheet.scores } : Object.fromEntries(sheet.overrides.map((o) => [o.row, o.from])));
    if (!sheet.fromScorecard && !extra.auto) for (const row of rows) if (row.auto && sheet.evidence[row.id] !== undefined && !(row.id in auto) && sheet.scores[row.id] !== undefined) auto[row.id] = sheet.scores[row.id]!;
    const grader = extra.grader ?? sheet.graderEvidence;
    graded = { ...(sheet.submission ? { submission: sheet.submission } : {}), evidence: sheet.evidence, caps: sheet.caps, auto, verdict: sheet.verdict, ...(grader ? { grader } : {}) };
    overrides = sheet.overrides;
    exported = extra.exported;
    for (const row of rows) {
      for (const input of form.querySelectorAll<HTMLInputElement>(`input[name="row-${row.id}"]`)) input.checked = sheet.scores[row.id] !== undefined && Number(input.value) === sheet.scores[row.id];
    }
    text('candidate').value = sheet.candidate;
    text('reviewer').value = sheet.reviewer || (storage.get(`${prefix}:reviewer`) ?? '');
    text('scoredOn').value = sheet.scoredOn || today();
    for (const f of noteFields) f.value = sheet.notes[f.dataset.note!] ?? '';
    draftId = draftIdOf(sheet) ?? freshUnnamed();
  };

  const openDraft = (id: string): boolean => {
    const d = readDraft(id);
    const read = d ? readScoredSheet(JSON.stringify(d.sheet), card) : undefined;
    if (!d || !read?.ok) return false;
    apply(read, { ...(d.auto ? { auto: d.auto } : {}), ...(d.grader ? { grader: d.grader } : {}), ...(d.exported ? { exported: d.exported } : {}) });
    draftId = id;
    storage.set(`${prefix}:current`, id);
    refresh();
    return true;
  };

  // What the grader found, at the top and beside each row.
  const showGraded = () => {
    const top = q('[data-grader]');
    const g = graded.grader;
    top.hidden = !g;
    if (g) {
      q('[data-grader-headline]').textContent = shown(decisionHeadline(g));
      top.dataset.state = g.decision.state;
      const list = q('[data-card-findings]');
      list.replaceChildren(...cardOwnFindings(g).map((i) => findingItem(g, i)));
      q('[data-card-findings-none]').hidden = cardOwnFindings(g).length > 0;
    }
    for (const row of rows) {
      const box = q(`[data-evidence="${row.id}"]`);
      const evidence = graded.evidence[row.id];
      const cap = graded.caps[row.id];
      const o = overrides.find((x) => x.row === row.id);
      const lines = [
        evidence ? `Automatic (${row.auto}): ${evidence}` : '',
        o ? `Overridden from ${o.from} to ${o.to} by ${o.reviewer || 'the reviewer'}: ${o.reason}` : '',
        cap ? `Capped at ${cap.max}: the failure mode "${cap.mode}" matched.` : '',
      ].filter(Boolean);
      box.textContent = shown(lines.join(' '));
      box.hidden = lines.length === 0;
      box.toggleAttribute('data-overridden', Boolean(o));
      for (const input of form.querySelectorAll<HTMLInputElement>(`input[name="row-${row.id}"]`)) input.disabled = cap !== undefined && Number(input.value) > cap.max;
      const list = q(`[data-row-findings="${row.id}"]`);
      const mine = g?.rowFindings[row.id] ?? [];
      list.replaceChildren(...mine.map((i) => findingItem(g!, i)));
      list.hidden = mine.length === 0;
    }
    const name = q('[data-blind-name]');
    name.textContent = blindLabel(graded.submission?.sha256);
    name.hidden = !hidesName();
    q('[data-candidate-field]').hidden = hidesName();
  };
  const findingItem = (g: GraderEvidence, i: number) => {
    const f = g.findings[i]!;
    const li = el('li', undefined, { 'data-finding': f.code });
    li.append(el('strong', f.code), shown(` ${f.severity === 'warning' ? '(warning) ' : ''}${f.file ? `${f.file}${f.line ? `:${f.line}` : ''}: ` : ''}${f.message}`));
    return li;
  };

  const showNotes = () => {
    for (const f of noteFields) {
      f.closest<HTMLElement>('.note')!.toggleAttribute('data-note-empty', !f.value.trim());
      f.style.height = 'auto';
      f.style.height = `${f.scrollHeight + 2}px`;
    }
  };

  const update = () => {
    const scores = currentScores();
    lastScores = scores;
    const scored = rows.filter((r) => scores[r.id] !== undefined);
    const total = scored.reduce((sum, r) => sum + (scores[r.id] ?? 0), 0);
    totalOut.textContent = scored.length ? String(total) : '\u00a0';
    totalOut.classList.toggle('blank', scored.length === 0);
    for (const li of form.querySelectorAll<HTMLElement>('[data-veto]')) {
      const veto = card.rubric.vetoes.find((v) => v.row === li.dataset.veto);
      const score = veto ? scores[veto.row] : undefined;
      const fired = veto !== undefined && score !== undefined && score <= veto.atMost;
      li.classList.toggle('fired', fired);
      li.querySelector<HTMLElement>('[data-veto-fired]')!.hidden = !fired;
    }
    showNotes();
    const so = decisionSoFar(card, scores, graded.caps, graded.grader ? { verdict: graded.grader.verdict, findings: graded.grader.findings, auto: graded.auto } : undefined);
    decisionBox.dataset.decision = so.state;
    stickyBar.dataset.state = so.state;
    q('[data-sticky-total]').textContent = String(total);
    q('[data-sticky-decision]').textContent = so.open === 0 ? (so.state === 'hire' ? 'Hire' : 'No hire') : so.state === 'no-hire' ? `No hire so far (${so.open} rows open)` : `${so.open} of ${rows.length} rows open`;
    // As imported (every score the scorecard's own), the card says its decision in scorecard.md's words, the grader's verdict included.
    const asGraded = graded.grader !== undefined && graded.grader.decision.state === so.state && rows.every((r) => scores[r.id] === graded.auto[r.id]);
    const reason = asGraded ? graded.grader!.decision.reason : so.reason;
    if (so.open === 0) decisionOut.textContent = `${so.state === 'hire' ? 'Hire' : 'No hire'}: ${reason}.`;
    else if (so.state === 'no-hire') decisionOut.textContent = `No hire so far, whatever the open rows score: ${reason}. ${so.open} of ${rows.length} rows still to score.`;
    else decisionOut.textContent = scored.length ? `${so.open} of ${rows.length} rows still to score; no decision yet.` : 'Tick one score per row; the total, the vetoes and the decision follow.';
  };

  const refresh = () => {
    showGraded();
    update();
    renderLists();
    renderOthers();
  };

  // The lists: this reviewer's cards, and the batch.
  const draftState = (d: Draft | undefined) => {
    if (!d) return 'not started';
    if (d.exported) return 'exported';
    const n = Object.keys(d.sheet.scores).length - Object.keys(d.auto ?? {}).filter((r) => r in d.sheet.scores).length;
    const judged = rows.length - Object.keys(d.auto ?? {}).length;
    return `${n} of ${judged} rows scored`;
  };
  const nameOf = (sheet: Pick<ScoredSheet, 'candidate' | 'submission'>, wasExported: boolean) =>
    blind && sheet.submission?.sha256 && !wasExported ? blindLabel(sheet.submission.sha256) : sheet.candidate || sheet.submission?.name || 'A card without a name';
  const renderLists = () => {
    const list = q('[data-drafts]');
    const ids = draftIds().sort();
    list.replaceChildren(
      ...ids.map((id) => {
        const d = readDraft(id)!;
        const li = el('li', undefined, { 'data-draft': id });
        const open = el('button', nameOf(d.sheet, Boolean(d.exported)), { type: 'button', class: 'link-button' });
        if (id === draftId) {
          li.setAttribute('aria-current', 'true');
          open.disabled = true;
        }
        open.addEventListener('click', () => {
          saveDraft();
          openDraft(id);
          say('');
        });
        li.append(open, ` · ${draftState(d)}`);
        return li;
      }),
    );
    q('[data-drafts-none]').hidden = ids.length > 0;
    const panel = q('[data-queue-panel]');
    panel.hidden = queue.length === 0;
    const body = q('[data-queue] tbody');
    const at = queue.findIndex((item) => item.sha256 && `sha256:${item.sha256}` === draftId);
    body.replaceChildren(
      ...queue.map((item, i) => {
        const d = item.sha256 ? readDraft(`sha256:${item.sha256}`) : undefined;
        const tr = el('tr', undefined, { 'data-queue-item': String(i) });
        if (i === at) tr.setAttribute('aria-current', 'true');
        const cell = el('td');
        const name = blind && item.sha256 && !d?.exported ? blindLabel(item.sha256) : item.name;
        if (item.card.ok) {
          const b = el('button', name, { type: 'button', class: 'link-button' });
          b.addEventListener('click', () => openQueueItem(i));
          cell.append(b);
        } else cell.append(name);
        tr.append(cell, el('td', item.verdict), el('td', item.decision), el('td', item.codes.join(' ') || 'none'), el('td', item.card.ok ? draftState(d) : 'cannot be scored: no scorecard'));
        return tr;
      }),
    );
    q('[data-queue-pos]').textContent = at >= 0 ? `Submission ${at + 1} of ${queue.length}` : `${queue.length} submissions`;
    q<HTMLButtonElement>('[data-prev]').disabled = at <= 0;
    q<HTMLButtonElement>('[data-next]').disabled = at === -1 ? queue.length === 0 : at >= queue.length - 1;
  };

  const openQueueItem = (i: number) => {
    const item = queue[i];
    if (!item?.card.ok) return;
    saveDraft();
    if (item.sha256 && openDraft(`sha256:${item.sha256}`)) {
      say(`Opened your card of ${hidesName() ? blindLabel(item.sha256) : item.name} (${i + 1} of ${queue.length}).`, 'ok');
      return;
    }
    apply(item.card);
    saveDraft();
    refresh();
    say(`Opened ${hidesName() ? blindLabel(item.sha256) : item.name} (${i + 1} of ${queue.length}) from its scorecard.`, 'ok');
  };
  const step = (by: number) => {
    const at = queue.findIndex((item) => item.sha256 && `sha256:${item.sha256}` === draftId);
    for (let i = at + by; i >= 0 && i < queue.length; i += by) {
      if (queue[i]!.card.ok) return openQueueItem(i);
    }
  };
  q('[data-prev]').addEventListener('click', () => step(-1));
  q('[data-next]').addEventListener('click', () => step(1));

  // Other reviewers' sheets of this submission, and the combined decision.
  const renderOthers = () => {
    const box = q('[data-others]');
    const others = readOthers();
    box.hidden = others.length === 0;
    if (!others.length) return;
    const shown = !blind || Boolean(exported);
    q('[data-others-hidden]').hidden = shown;
    q('[data-others-hidden]').textContent = `${others.length} other reviewer${others.length === 1 ? '' : 's'}' sheet${others.length === 1 ? '' : 's'} of this submission ${others.length === 1 ? 'is' : 'are'} kept, hidden until you export your own card.`;
    const table = q<HTMLTableElement>('[data-others-table]');
    const combined = q('[data-combined]');
    table.hidden = !shown;
    combined.hidden = !shown;
    if (!shown) return;
    const mine = completeScores(card, currentScores());
    const sheets: OtherSheet[] = [...(mine ? [{ reviewer: `${text('reviewer').value || 'you'} (you)`, scores: mine }] : []), ...others];
    const rule = card.rubric.combine ?? DEFAULT_COMBINE;
    const result = sheets.length ? combineScores(card.rubric, sheets.map((s) => s.scores)) : undefined;
    const head = el('tr');
    head.append(el('th', 'Row', { scope: 'col' }), ...sheets.map((s) => el('th', s.reviewer, { scope: 'col' })), el('th', 'Combined', { scope: 'col' }));
    const body = rows.map((row) => {
      const tr = el('tr', undefined, { 'data-combined-row': row.id });
      tr.append(el('th', row.id, { scope: 'row' }), ...sheets.map((s) => el('td', String(s.scores[row.id]))), el('td', result ? String(result.scores[row.id]) : ''));
      return tr;
    });
    table.replaceChildren(el('thead'), el('tbody'));
    table.tHead!.append(head);
    table.tBodies[0]!.append(...body);
    const ruleWords = `${rule.rows === 'median' ? 'the median of each row (of an even count, the lower middle)' : 'the lowest score of each row'}, and ${rule.veto === 'any' ? "any reviewer's veto holds" : "a veto holds when a majority of reviewers fire it"}`;
    combined.textContent = result
      ? `Combined decision of ${result.sheets} sheets: ${result.decision === 'hire' ? 'Hire' : 'No hire'} (${result.reason}). The rubric's rule: ${ruleWords}.`
      : `The rubric's rule: ${ruleWords}.`;
    combined.dataset.state = result?.decision ?? 'pending';
  };

  // Editing the card.
  let pendingOverride: { row: string; from: number; to: number; previous: number | undefined } | undefined;
  const edited = (event: Event) => {
    if (event.target === fileInput || event.target === othersInput || event.target === blindBox) return;
    const target = event.target as HTMLInputElement;
    // A tick fires input, then change: the change handles it, with the score before it still known.
    if (event.type === 'input' && target.type === 'radio') return;
    if (event.type === 'change' && target.type === 'radio' && target.name.startsWith('row-')) {
      const row = target.name.slice(4);
      const from = graded.auto[row];
      const to = Number(target.value);
      if (from !== undefined && to !== from) {
        pendingOverride = { row, from, to, previous: lastScores[row] };
        overrideReason.value = '';
        q('[data-override-what]').textContent = `Row "${row}" was scored ${from} by packet grade from the evidence; you are changing it to ${to}.`;
        overrideDialog.showModal();
      } else if (from !== undefined) overrides = overrides.filter((o) => o.row !== row);
    }
    if (event.target === text('reviewer')) storage.set(`${prefix}:reviewer`, text('reviewer').value);
    // An edit answers the last refusal; saving may give a new one (a name another card has), which stays.
    if (sheetStatus.dataset.tone === 'error') say('');
    update();
    showGraded();
    saveDraft();
    renderOthers();
  };
  form.addEventListener('change', edited);
  form.addEventListener('input', edited);
  form.addEventListener('submit', (event) => event.preventDefault());

  q('[data-override-confirm]').addEventListener('click', () => {
    const reason = overrideReason.value.trim();
    if (!reason) {
      q('[data-override-error]').hidden = false;
      overrideReason.focus();
      return;
    }
    q('[data-override-error]').hidden = true;
    if (pendingOverride) {
      const { row, from, to } = pendingOverride;
      overrides = [...overrides.filter((o) => o.row !== row), { row, from, to, reason, reviewer: text('reviewer').value.trim(), at: new Date().toISOString() }];
    }
    pendingOverride = undefined;
    overrideDialog.close();
    showGraded();
    saveDraft();
  });
  const cancelOverride = () => {
    if (pendingOverride) {
      const { row, previous } = pendingOverride;
      for (const input of form.querySelectorAll<HTMLInputElement>(`input[name="row-${row}"]`)) input.checked = previous !== undefined && Number(input.value) === previous;
    }
    pendingOverride = undefined;
    if (overrideDialog.open) overrideDialog.close();
    update();
    showGraded();
    saveDraft();
  };
  q('[data-override-cancel]').addEventListener('click', cancelOverride);
  overrideDialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    cancelOverride();
  });

  // Number keys: on a row, 0-9 ticks that score.
  form.addEventListener('keydown', (event) => {
    const target = event.target as HTMLElement;
    if (!/^[0-9]$/.test(event.key) || event.ctrlKey || event.metaKey || event.altKey || !(target instanceof HTMLInputElement) || target.type !== 'radio') return;
    const row = target.closest<HTMLElement>('[data-row]');
    const input = row?.querySelector<HTMLInputElement>(`input[type="radio"][value="${event.key}"]`);
    if (!input || input.disabled) return;
    event.preventDefault();
    input.focus();
    if (!input.checked) input.click();
  });

  blindBox.addEventListener('change', () => {
    blind = blindBox.checked;
    storage.set(`${prefix}:blind`, blind ? 'on' : 'off');
    refresh();
  });

  q('[data-export]').addEventListener('click', () => {
    const scores = currentScores();
    if (!completeScores(card, scores)) {
      const open = rows.filter((r) => scores[r.id] === undefined).map((r) => rows.indexOf(r) + 1);
      say(`Score every row before exporting (row${open.length === 1 ? '' : 's'} ${open.join(', ')} ${open.length === 1 ? 'is' : 'are'} open): a sheet holds a decision, and a decision needs every row.`, 'error');
      return;
    }
    const sheet = currentSheet();
    if (!sheet.candidate && !sheet.submission?.name) {
      say('Name the candidate before exporting (the Candidate field): a sheet without a candidate or a submission cannot be matched with the other reviewers\' sheets.', 'error');
      return;
    }
    if (!sheet.reviewer) {
      say('Type your name as the reviewer before exporting (the Reviewer field): packet agreement groups the sheets by reviewer.', 'error');
      return;
    }
    const silent = rows.find((r) => graded.auto[r.id] !== undefined && scores[r.id] !== graded.auto[r.id] && !overrides.some((o) => o.row === r.id && o.to === scores[r.id]));
    if (silent) {
      say(`Row "${silent.id}" differs from the scorecard's ${graded.auto[silent.id]} without a reason: tick it again to give one, or set it back. Nothing was exported.`, 'error');
      return;
    }
    const name = scoredSheetFileName(sheet);
    downloadJson(name, sheet);
    exported = sheet.date;
    saveDraft();
    refresh();
    say(`Exported ${name} (version ${card.version}, digest ${card.digest.slice(0, 12)}${sheet.submission?.sha256 ? `; submission sha256 ${sheet.submission.sha256.slice(0, 12)}` : ''}).`, 'ok');
  });

  q('[data-print]').addEventListener('click', () => window.print());

  const clear = () => {
    storage.remove(keyOf(draftId));
    storage.remove(othersKey());
    storage.remove(`${prefix}:current`);
    storage.remove(`${prefix}:reviewer`);
    resetForm();
    refresh();
    say('Cleared.', 'ok');
  };
  q('[data-clear]').addEventListener('click', () => {
    if (isBlankSheet(currentSheet()) && !graded.submission) clear();
    else clearDialog.showModal();
  });
  q('[data-clear-confirm]').addEventListener('click', () => {
    clearDialog.close();
    clear();
  });
  q('[data-clear-cancel]').addEventListener('click', () => clearDialog.close());

  q('[data-new-card]').addEventListener('click', () => {
    saveDraft();
    resetForm();
    storage.remove(`${prefix}:current`);
    refresh();
    say('A new, blank card. Your other cards are in the list above.', 'ok');
  });

  // Imports: a sheet, a scorecard, or a batch's summary.json.
  let pendingImport: (() => void) | undefined;
  const ask = (question: string, replace: () => void, keep: () => void) => {
    q('[data-replace-what]').textContent = question;
    pendingImport = replace;
    keepImport = keep;
    replaceDialog.showModal();
  };
  let keepImport: (() => void) | undefined;
  q('[data-replace-confirm]').addEventListener('click', () => {
    replaceDialog.close();
    pendingImport?.();
    pendingImport = keepImport = undefined;
  });
  q('[data-replace-cancel]').addEventListener('click', () => {
    replaceDialog.close();
    keepImport?.();
    pendingImport = keepImport = undefined;
  });

  const importSheet = (result: SheetRead, fileName: string) => {
    saveDraft();
    const target = draftIdOf(result);
    const existing = target ? readDraft(target) : undefined;
    const done = () => {
      apply(result);
      storage.remove(keyOf(draftId));
      saveDraft();
      refresh();
      if (result.fromScorecard) {
        const open = rows.filter((r) => result.scores[r.id] === undefined).length;
        const n = Object.keys(result.scores).length;
        say(`Imported the scorecard of ${hidesName() ? blindLabel(result.submission?.sha256) : result.submission!.name}: ${n} automatic row${n === 1 ? '' : 's'} set from the evidence, ${open} left for you to score.`, 'ok');
      } else say(`Imported ${fileName}${result.date ? `, scored ${result.scoredOn || result.date.slice(0, 10)}` : ''}.`, 'ok');
    };
    const scoredByReviewer = existing && Object.keys(existing.sheet.scores).some((r) => !(r in (existing.auto ?? {})) || existing.sheet.scores[r] !== existing.auto?.[r]);
    if (existing && (scoredByReviewer || Object.keys(existing.sheet.notes ?? {}).length)) {
      const who = nameOf(existing.sheet, Boolean(existing.exported));
      ask(`You already have a card for ${who} with ${Object.keys(existing.sheet.scores).length} of ${rows.length} rows scored. Replace it with ${fileName}?`, done, () => {
        openDraft(target!);
        say(`Kept your card for ${who}; ${fileName} was not imported.`, 'ok');
      });
    } else done();
  };

  fileInput.addEventListener('change', async () => {
    const file = fileInput.files?.[0];
    if (!file) return;
    const raw = await file.text();
    fileInput.value = '';
    const json = parse<unknown>(raw);
    // Answer sheets graded by packet grade: their answers show only through the scoring page's own import.
    const graded = json === undefined ? null : sheetGraded(json);
    if (graded) {
      const pageImport = document.querySelector<HTMLInputElement>('input[data-card-file]');
      if (!pageImport || pageImport.disabled) return say(sheetGradedRefusal(graded), 'error');
      const files = new DataTransfer();
      files.items.add(file);
      pageImport.files = files.files;
      pageImport.dispatchEvent(new Event('change'));
      return say(`${file.name} holds graded answer sheets, so it went to this page's own import ("A scorecard.json or a batch's summary.json", above), which shows the answers beside the key: read its status there.`, 'ok');
    }
    if (json !== undefined && isGradeSummary(json)) {
      const read = readGradeSummary(json, card);
      if (!read.ok) return say(read.message, 'error');
      saveDraft();
      queue = read.items;
      storage.set(`${prefix}:queue`, JSON.stringify(queue));
      blind = true;
      blindBox.checked = true;
      storage.set(`${prefix}:blind`, 'on');
      const first = queue.findIndex((item) => item.card.ok);
      if (first >= 0) openQueueItem(first);
      else refresh();
      say(`Imported the batch: ${queue.length} submission${queue.length === 1 ? '' : 's'}, ${queue.filter((i) => i.card.ok).length} to score. Blind review is on: names stay hidden until you export each card.`, 'ok');
      return;
    }
    const result = readImport(raw, card);
    if (!result.ok) return say(result.message, 'error');
    importSheet(result, file.name);
  });

  othersInput.addEventListener('change', async () => {
    const files = [...(othersInput.files ?? [])];
    othersInput.value = '';
    const kept: string[] = [];
    const others = readOthers();
    for (const file of files) {
      const read = readScoredSheet(await file.text(), card);
      if (!read.ok) return say(`${file.name}: ${read.message}`, 'error');
      if ((draftIdOf(read) ?? '') !== draftId) return say(`${file.name} scores another submission than this card; open that submission's card first. Nothing was kept.`, 'error');
      const me = text('reviewer').value.trim();
      if (!read.reviewer || read.reviewer === me) return say(`${file.name} names ${read.reviewer ? 'you' : 'no reviewer'}; only another reviewer's sheet is kept here (import your own with the import above). Nothing was kept.`, 'error');
      const scores = completeScores(card, read.scores);
      if (!scores) return say(`${file.name} leaves rows open, so it has no decision to combine. Nothing was kept.`, 'error');
      others.splice(0, others.length, ...others.filter((o) => o.reviewer !== read.reviewer), { reviewer: read.reviewer, scores });
      kept.push(read.reviewer);
    }
    storage.set(othersKey(), JSON.stringify(others));
    renderOthers();
    say(`Kept ${kept.length} other reviewer${kept.length === 1 ? '' : 's'}' sheet${kept.length === 1 ? '' : 's'} of this submission${blind && !exported ? '; they stay hidden until you export your own card' : ''}.`, 'ok');
  });

  // Start: the page is scripted, and the card last open comes back.
  q('[data-score-actions]').hidden = false;
  q('[data-review]').hidden = false;
  q('[data-autosave-note]').hidden = false;
  q('[data-no-script]').hidden = true;
  // The bar shows while the tally is out of view; it keeps its place when it gives way, so nothing under the pointer moves.
  stickyBar.hidden = false;
  if ('IntersectionObserver' in window) new IntersectionObserver(([entry]) => stickyBar.toggleAttribute('data-covered', Boolean(entry?.isIntersecting))).observe(q('.tally'));
  blindBox.checked = blind;
  const legacy = storage.get(prefix);
  if (legacy !== null) {
    const read = readScoredSheet(legacy, card);
    if (read.ok) {
      apply(read);
      saveDraft();
    }
    storage.remove(prefix);
  }
  const current = storage.get(`${prefix}:current`);
  resetForm();
  const d = current ? readDraft(current) : undefined;
  if (current && openDraft(current)) say(`Restored the card you were scoring (saved ${new Date(d!.sheet.date).toLocaleString()}).`, 'ok');
  else refresh();
}
