/**
 * `text` with the five characters that HTML gives a meaning to (`& < > " '`) written as character
 * references, safe inside an element or a quoted attribute of a page the server writes itself (the funnel
 * page, the error page of a page load).
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
