import type { Page } from '@playwright/test';

/** Pages in a PDF: its page objects (`/Type /Page`, not the `/Type /Pages` tree nodes). */
export const pdfPages = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;

/** The page printed on A4 and on Letter, in pages. */
export async function pagesIn(page: Page): Promise<Record<'A4' | 'Letter', number>> {
  return { A4: pdfPages(await page.pdf({ format: 'A4' })), Letter: pdfPages(await page.pdf({ format: 'Letter' })) };
}
