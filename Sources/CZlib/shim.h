// zlib (Debian's zlib1g-dev), for the server's gzip of the page's files.
#include <zlib.h>
