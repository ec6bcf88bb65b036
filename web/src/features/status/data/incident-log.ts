// The status page's incident log: docs-content/status/incidents.yaml, bundled as text and
// checked by docs-content's schema. Illustrative entries (the file says so, and so does the page).
import { incidentLogSchema, incidentLogText, parseYaml, type IncidentLog } from '@purser/docs-content/browser';

export const incidentLog: IncidentLog = incidentLogSchema.parse(parseYaml(incidentLogText, 'status/incidents.yaml'));
