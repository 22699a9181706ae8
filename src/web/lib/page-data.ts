// API answers the server drew a page with (docs/decisions/035): the news pages come with their
// posts in the HTML, and the same answers in a <script id="page-data">, so that the app taking the
// page over draws what the HTML shows without asking again. They answer only the page they came
// with: the first navigation forgets them, and a screen opened later asks the API as always.
let drawn: { path: string; answers: Record<string, unknown> } | null = null;

/**
 * The answers of the page drawn at `path`: set by prerender.tsx on the server for the one
 * synchronous draw, and by main.tsx in the browser from the page's script (escaped by the server).
 */
export function setPageData(path: string, answers: Record<string, unknown> | null) {
  drawn = answers ? { path, answers } : null;
}

/** The answer the page was drawn with for GET /api{apiPath}, if any. */
export function pageData<T>(apiPath: string): T | undefined {
  return drawn?.answers[apiPath] as T | undefined;
}

/** Called on every navigation: answers drawn for another page no longer hold. */
export function forgetPageDataUnless(path: string) {
  if (drawn && drawn.path !== path) drawn = null;
}

