// The status page's incident log: docs-content/status/incidents.yaml, bundled as text and
// checked by docs-content's schema. Illustrative entries (the file says so, and so does the page).
import { parseYaml } from '@purser/docs-content/front-matter';
import { incidentLogSchema, type IncidentLog } from '@purser/docs-content/schemas';
import text from '../../../../../docs-content/status/incidents.yaml?raw';

export const incidentLog: IncidentLog = incidentLogSchema.parse(parseYaml(text, 'status/incidents.yaml'));
