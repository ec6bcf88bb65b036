/** A client as the authorization server knows it, registered or described by its metadata document. */
export interface OAuthClientRecord {
  /** A registered client's id (a UUID), or the URL of its Client ID Metadata Document. */
  clientId: string;
  /** What the client calls itself: nothing vouches for it. */
  name: string | null;
  uri: string | null;
  redirectUris: string[];
}
