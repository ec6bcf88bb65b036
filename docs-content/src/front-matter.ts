import { parse, YAMLParseError } from 'yaml';
import { ContentError } from './blocks';

export type FrontMatterFile = {
  data: unknown;
  body: string;
  /** Line of the file on which the body starts (1-based). */
  bodyLine: number;
};

/** Splits `---` YAML front matter from the markdown body and parses it (YAML 1.2). */
export function splitFrontMatter(text: string, file: string): FrontMatterFile {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines[0] !== '---') throw new ContentError(`${file}:1: the file must start with "---" front matter`);
  const end = lines.indexOf('---', 1);
  if (end < 0) throw new ContentError(`${file}: the front matter is not closed by a "---" line`);
  const data = parseYaml(lines.slice(1, end).join('\n'), file, 1);
  return { data, body: lines.slice(end + 1).join('\n'), bodyLine: end + 2 };
}

/** Parses YAML (1.2), naming the file and line of a syntax error. */
export function parseYaml(text: string, file: string, lineOffset = 0): unknown {
  try {
    return parse(text);
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const line = (error.linePos?.[0].line ?? 1) + lineOffset;
      throw new ContentError(`${file}:${line}: not valid YAML: ${error.message}`, { cause: error });
    }
    throw error;
  }
}
