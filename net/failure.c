/* Why a connection failed before any answer, in words: lws's texts ("Unable to connect",
 * "connect SSL err 1: error:00000001…") say little, so the cause is read from the TLS
 * session's verify result where there is one. */
#include <string.h>

#include "net_int.h"

/* OpenSSL's certificate verify results, in words. */
static const struct {
	long code;
	const char *says;
} verify_texts[] = {
	{ X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, "the server's certificate is self-signed, not trusted here (--insecure skips the check)" },
	{ X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, "the server's certificate chain ends in a self-signed certificate not trusted here (--insecure skips the check)" },
	{ X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, "the server's certificate has an unknown issuer, not trusted here (--insecure skips the check)" },
	{ X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, "the server's certificate has an unknown issuer, not trusted here (--insecure skips the check)" },
	{ X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, "the server's certificate has an unknown issuer, not trusted here (--insecure skips the check)" },
	{ X509_V_ERR_CERT_HAS_EXPIRED, "the server's certificate has expired" },
	{ X509_V_ERR_CERT_NOT_YET_VALID, "the server's certificate is not valid yet (check the clock)" },
	{ X509_V_ERR_HOSTNAME_MISMATCH, "the server's certificate is for another host name" },
	{ X509_V_ERR_IP_ADDRESS_MISMATCH, "the server's certificate is for another address" },
	{ X509_V_ERR_CERT_REVOKED, "the server's certificate was revoked" },
};

static bool says(const char *in, size_t len, const char *what)
{
	size_t n = strlen(what);

	for (size_t i = 0; i + n <= len; i++)
		if (!memcmp(in + i, what, n))
			return true;
	return false;
}

enum net_cause net_failure_describe(struct lws *wsi, const char *in, size_t len, struct buf *out)
{
	if (!in)
		len = 0;
	if (says(in, len, "SSL")) {
		SSL *ssl = wsi ? lws_get_ssl(wsi) : NULL;
		long v = ssl ? SSL_get_verify_result(ssl) : X509_V_OK;

		buf_puts(out, "TLS handshake failed: ");
		for (size_t i = 0; i < sizeof(verify_texts) / sizeof(*verify_texts); i++)
			if (verify_texts[i].code == v) {
				buf_puts(out, verify_texts[i].says);
				return NET_CAUSE_TLS;
			}
		if (v != X509_V_OK)
			buf_printf(out, "the server's certificate was refused (%s)",
				   X509_verify_cert_error_string(v));
		else
			buf_puts(out, "the server does not speak TLS there (a plain-HTTP server "
				 "is reached with http:// or ws://)");
		return NET_CAUSE_TLS;
	}
	if (says(in, len, "Unable to connect")) {
		buf_puts(out, "connection refused (no server is listening there)");
		return NET_CAUSE_REFUSED;
	}
	buf_append(out, in ? in : "", len);
	return NET_CAUSE_OTHER;
}
