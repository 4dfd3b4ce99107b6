"""A small TCP proxy on loopback for the failover tests: a fixed address the
page keeps (its origin), in front of whichever server it is pointed at now."""

import socket
import threading


class Proxy:
    """Forwards each connection to `target` (a port on 127.0.0.1) as it is when
    the connection comes; `point_at` moves new connections to another server and
    cuts the ones open, as a load balancer does when a backend dies."""

    def __init__(self, target):
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.lock = threading.Lock()
        self.open = set()
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def point_at(self, target):
        with self.lock:
            self.target = target
            sockets, self.open = self.open, set()
        for sock in sockets:
            self._close(sock)

    def close(self):
        self.closed = True
        self.point_at(None)
        self._close(self.listener)

    @staticmethod
    def _close(sock):
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.close()

    def _accept(self):
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                target = self.target
            try:
                upstream = socket.create_connection(("127.0.0.1", target), timeout=5)
                upstream.settimeout(None)
            except (OSError, TypeError):
                self._close(client)  # nothing behind the proxy: the page sees a refused connection
                continue
            with self.lock:
                self.open |= {client, upstream}
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            with self.lock:
                self.open -= {source, sink}
            self._close(source)
            self._close(sink)
