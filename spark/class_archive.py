"""The class-data archive of the local Spark sessions Python starts: the classes a run loaded from Spark's jars,
parsed and verified once, then mapped by every later run (the JVM's application class-data sharing:
`-XX:ArchiveClassesAtExit`, then `-XX:SharedArchiveFile`), because loading and verifying Spark's classes was most of
a local session's start: with the archive it starts in about half the time (docs/performance.md "The rules on Spark
and DuckDB").

The first run on a machine, and the first after Java or PySpark changed (each virtual environment's jars have an
archive of their own), writes the archive as its JVM exits (about 15 s more, once); `ClassArchive.finish` waits
for that and moves the archive into place under a name that carries its size: the JVM maps the file and would
crash on a truncated one, so only a file of the size it was written with is used. A run killed before leaves its
temporary file, which the next run removes. An archive removed while a JVM starts with it is only not used.
FANOUT_CLASS_ARCHIVE names the folder (default $XDG_CACHE_HOME/fanout, else ~/.cache/fanout) or turns the archive
off ("off")."""
import glob
import hashlib
import os
import shlex
import shutil
import time

OFF = ("", "off", "0", "no", "false")
PREFIX = "spark-classes-"
# Archives of other keys (another PySpark, another virtual environment's jars, an older Java) are kept while jobs
# use them, so that two environments on one machine do not evict each other's, but at most KEPT_OTHERS of them, and
# none unused for UNUSED_FOR: each is about 180 MB, and every fresh checkout's virtual environment makes a new key.
UNUSED_FOR = 30 * 24 * 3600
KEPT_OTHERS = 2


def folder():
    """Where the archive lives, or None when it is turned off."""
    setting = os.environ.get("FANOUT_CLASS_ARCHIVE")
    if setting is not None:
        return None if setting.strip().lower() in OFF else setting
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "fanout")


def java_binary():
    home = os.environ.get("JAVA_HOME")
    java = os.path.join(home, "bin", "java") if home else shutil.which("java")
    return os.path.realpath(java) if java and os.path.exists(java) else None


def fingerprint(spark_home, java):
    """What an archive holds depends on: the Java runtime and Spark's jars (paths, sizes and times)."""
    digest = hashlib.sha256()
    for path in [java] + sorted(glob.glob(os.path.join(spark_home, "jars", "*.jar"))):
        info = os.stat(path)
        digest.update(f"{path}\0{info.st_size}\0{int(info.st_mtime)}\n".encode())
    return digest.hexdigest()[:16]


def complete(path):
    """Whether an archive's file has the size its name says."""
    size = path[:-len(".jsa")].rsplit("-", 1)[-1]
    try:
        return size.isdigit() and os.path.getsize(path) == int(size)
    except OSError:
        return False


class ClassArchive:
    """The archive of one session's JVM: `java_options` to start it with, `finish` once it has exited."""

    def __init__(self, where, key):
        self.where, self.key = where, key
        found = [path for path in glob.glob(os.path.join(where, f"{PREFIX}{key}-*.jsa")) if complete(path)]
        self.path = found[0] if found else None
        if self.path:
            try:
                os.utime(self.path)  # used now: kept while it is used (UNUSED_FOR)
            except OSError:
                pass
        self.writing = None if self.path else os.path.join(where, f"{PREFIX}{key}.{os.getpid()}.tmp")

    def java_options(self):
        # The archive's own messages (classes it leaves out, an archive of another JVM) are not the run's.
        quiet = "-Xlog:cds*=off -Xlog:class+path=off"
        if self.writing:
            return f"{shlex.quote(f'-XX:ArchiveClassesAtExit={self.writing}')} {quiet}"
        return f"{shlex.quote(f'-XX:SharedArchiveFile={self.path}')} {quiet}"

    def finish(self, process):
        """Once the session has stopped: ends its JVM (the gateway exits at the end of its input) and waits while it
        writes the archive, then puts it in place, removing any other of its key and of other keys all but the
        KEPT_OTHERS used last within UNUSED_FOR. Nothing is kept when the JVM failed."""
        if not self.writing:
            return
        try:
            if process is None:
                return
            if process.stdin:
                process.stdin.close()
            process.wait(timeout=300)
            if process.returncode == 0 and os.path.getsize(self.writing) > 0:
                final = os.path.join(self.where, f"{PREFIX}{self.key}-{os.path.getsize(self.writing)}.jsa")
                os.replace(self.writing, final)
                mine = glob.glob(os.path.join(self.where, f"{PREFIX}{self.key}-*.jsa"))
                for older in mine:
                    if older != final:
                        removed(older)
                others = sorted(set(glob.glob(os.path.join(self.where, f"{PREFIX}*.jsa"))) - set(mine),
                                key=os.path.getmtime, reverse=True)
                for rank, other in enumerate(others):
                    if rank >= KEPT_OTHERS or time.time() - os.path.getmtime(other) > UNUSED_FOR:
                        removed(other)
        except Exception:  # a JVM that did not exit in time, a full disk: no archive this time
            pass
        finally:
            removed(self.writing)


def for_local_session(spark_home, cleaned=True):
    """The archive of a local session Python is about to start, or None when there is none to use or to write: turned
    off, no Java found, or a class path the JVM cannot archive (a configuration folder with files in it, which is
    why the job then names its log configuration instead of putting spark/conf on the class path; extra class path
    entries). `cleaned` makes the folder and removes what runs left unfinished."""
    where = folder()
    java = java_binary()
    if not where or not java or not spark_home:
        return None
    conf = os.environ.get("SPARK_CONF_DIR") or os.path.join(spark_home, "conf")
    if os.path.isdir(conf) and os.listdir(conf):
        return None
    if os.environ.get("SPARK_DIST_CLASSPATH") or "class-path" in os.environ.get("PYSPARK_SUBMIT_ARGS", ""):
        return None
    try:
        key = fingerprint(spark_home, java)
        if cleaned:
            os.makedirs(where, exist_ok=True)
    except OSError:
        return None
    if cleaned:
        removed_unfinished(where)
    return ClassArchive(where, key)


def removed_unfinished(where):
    """Removes the temporary files of runs that ended before their JVM wrote the archive, and archives cut short."""
    for path in glob.glob(os.path.join(where, f"{PREFIX}*")):
        name = os.path.basename(path)
        if name.endswith(".tmp"):
            pid = name.rsplit(".", 2)[-2]
            if pid.isdigit() and not alive(int(pid)):
                removed(path)
        elif name.endswith(".jsa") and not complete(path):
            removed(path)


def removed(path):
    try:
        os.remove(path)
    except OSError:
        pass


def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def describe():
    """One line on the archive a local session would use now, for `python3 spark/class_archive.py`."""
    from pyspark.find_spark_home import _find_spark_home
    where = folder()
    if not where:
        return "the class-data archive is off (FANOUT_CLASS_ARCHIVE)"
    archive = for_local_session(_find_spark_home(), cleaned=False)
    if archive is None:
        return "no class-data archive: no Java, or a class path the JVM cannot archive (SPARK_CONF_DIR with files)"
    if archive.path:
        return f"{archive.path} ({os.path.getsize(archive.path) >> 20} MB)"
    return f"no class-data archive yet in {where}: the next local job writes it ({PREFIX}{archive.key}-SIZE.jsa)"


if __name__ == "__main__":
    print(describe())
