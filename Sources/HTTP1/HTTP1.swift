// HTTP/1.1 (RFC 9112) as a protocol without I/O: to be written (issue 22).
