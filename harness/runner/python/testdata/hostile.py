"""Originals that reach outside their run (runner sandbox tests): with the
sandbox on each must fail, with it off each succeeds."""
import socket

from pyspark.sql.functions import udf
from pyspark.sql.types import StringType


@udf(returnType=StringType())
def write_file(path):
    """Writes a file where the test says: outside any scratch folder."""
    with open(path, "w") as f:
        f.write("escaped\n")
    return "written"


@udf(returnType=StringType())
def connect(port):
    """Opens a TCP connection to the test's listener on 127.0.0.1."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"escaped\n")
    return "connected"
