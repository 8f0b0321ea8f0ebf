/**
 * The one id function, shared by the CLI's loader and the site's loader: a packet's id is its
 * folder name, lowercased, with every run of other characters turned into a single dash.
 */
export function packetId(folderName: string): string {
  return folderName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
