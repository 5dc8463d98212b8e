/**
 * Ports an outbound request to a user's URL never goes to: the Fetch standard's "bad ports"
 * (mail, shell, file sharing, chat… protocols a browser refuses to speak HTTP to), plus the
 * default ports of common data stores and brokers. A request smuggled to one of them could speak
 * that protocol to an internal service; no webhook receiver needs them.
 */
export const REFUSED_PORTS: ReadonlySet<number> = new Set([
  // Fetch standard, "bad port".
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111,
  113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548,
  554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566,
  6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
  // Data stores and brokers: ZooKeeper, MySQL, PostgreSQL, AMQP, Redis, Cassandra, Kafka, memcached, MongoDB.
  2181, 3306, 5432, 5672, 6379, 9042, 9092, 11211, 27017,
]);

export type DestinationUrl = { readonly ok: true; readonly url: string } | { readonly ok: false; readonly reason: string };

const refuse = (reason: string): DestinationUrl => ({ ok: false, reason });

// C0 controls, space and DEL: the WHATWG parser drops tabs and line breaks silently, so a URL
// sent with them would be stored as one thing and requested as another.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The authority of an absolute URL as written: between `//` and the first `/`, `?` or `#`. */
const writtenAuthority = (raw: string): string => {
  const start = raw.indexOf('//');
  if (start < 0) return '';
  const rest = raw.slice(start + 2);
  const end = rest.search(/[/?#\\]/);
  return end < 0 ? rest : rest.slice(0, end);
};

/**
 * The rules every destination URL a user gives meets before it is stored (webhook endpoints,
 * reliability-run targets), the same for every deployment: no control characters, no userinfo at
 * all (`https://:@host` too, which the WHATWG serialisation would silently drop), no port 0 and
 * none of {@link REFUSED_PORTS}. Answers the URL as the WHATWG URL standard serialises it, which
 * is what is stored, shown and requested. Scheme and address rules are the URL guard's.
 */
export const normalizeDestinationUrl = (raw: string): DestinationUrl => {
  if (CONTROL.test(raw)) return refuse('control characters (such as CR or LF) are not allowed; percent-encode them');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('not a valid URL');
  }
  if (writtenAuthority(raw).includes('@') || url.username !== '' || url.password !== '') {
    return refuse('credentials in the URL are not allowed (an empty user or password too)');
  }
  if (url.port !== '') {
    const port = Number(url.port);
    if (port === 0) return refuse('port 0 is not allowed');
    if (REFUSED_PORTS.has(port)) return refuse(`port ${port} belongs to a protocol other than HTTP and is not allowed`);
  }
  return { ok: true, url: url.href };
};
