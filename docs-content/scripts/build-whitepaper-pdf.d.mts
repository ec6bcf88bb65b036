/** The whitepaper as a standalone markdown file: its front matter becomes a title block. */
export declare function renderWhitepaperMarkdown(): Promise<string>;
export declare function renderWhitepaperHtml(): Promise<string>;
/** Prints the whitepaper to `output` with headless Chromium; resolves with the file's size. */
export declare function buildWhitepaperPdf(output: string): Promise<number>;
