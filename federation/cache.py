"""The default cache of a production site on one machine: files every server process shares.

Django's file cache, with three changes:

- `add` is atomic (a file linked into place fails if another process linked it first), so a
  lock taken with `add` is held by one process only;
- a key of the form `GROUP@GENERATION/NAME` is kept in a folder of its generation inside a folder
  of its group (`championship.lib.summaries` names a season's figures `…season@token/…`). When a
  group's new generation gets its first entry, the generations of the group that nobody wrote
  to for `GRACE` seconds are removed, whole: figures of a state the database has left;
- the entry limit (`MAX_ENTRIES`, other keys) removes expired entries, then the least recently
  written ones, never a random third of everything;
- `incr` is atomic between processes (a counter of the password reset's limits counts every
  request): the new value is written under a lock, then moved into place.
"""

import contextlib
import fcntl
import os
import pickle
import shutil
import tempfile
import time
import zlib
from hashlib import md5

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache

GRACE = 60  # seconds: a read that began before a write may still store the figures it computed


def _digest(text):
    return md5(text.encode(), usedforsecurity=False).hexdigest()


class FileCache(FileBasedCache):
    def _key_to_file(self, key, version=None):
        key = self.make_and_validate_key(key, version=version)
        group, at, rest = key.partition("@")
        generation, slash, _name = rest.partition("/")
        name = _digest(key) + self.cache_suffix
        if not (at and slash):
            return os.path.join(self._dir, name)
        return os.path.join(self._dir, "g" + _digest(group)[:20], _digest(generation)[:20], name)

    def _prepare(self, fname):
        """Create the folder of `fname`; when it is a new generation, remove its group's old ones."""
        folder = os.path.dirname(fname)
        if folder == self._dir:
            self._createdir()
            self._cull()
            return
        if os.path.isdir(folder):
            return
        os.makedirs(folder, mode=0o700, exist_ok=True)
        group = os.path.dirname(folder)
        threshold = time.time() - GRACE
        with os.scandir(group) as entries:
            for entry in entries:
                if entry.path == folder or not entry.is_dir(follow_symlinks=False):
                    continue
                with contextlib.suppress(OSError):
                    if entry.stat(follow_symlinks=False).st_mtime < threshold:
                        shutil.rmtree(entry.path, ignore_errors=True)

    def _temporary(self, fname, value, timeout):
        fd, path = tempfile.mkstemp(dir=os.path.dirname(fname), suffix=".tmp")
        try:
            with open(fd, "wb") as file:
                self._write_content(file, timeout, value)
        except BaseException:
            os.remove(path)
            raise
        return path

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        fname = self._key_to_file(key, version)
        for attempt in range(2):
            self._prepare(fname)
            try:
                path = self._temporary(fname, value, timeout)
                break
            except FileNotFoundError:  # the folder was removed meanwhile
                if attempt:
                    raise
        os.replace(path, fname)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        fname = self._key_to_file(key, version)
        self._prepare(fname)
        path = self._temporary(fname, value, timeout)
        try:
            for _attempt in range(2):
                try:
                    os.link(path, fname)
                    return True
                except FileExistsError:
                    if self.has_key(key, version):  # an expired entry is removed by the check
                        return False
            return False
        finally:
            os.remove(path)

    def incr(self, key, delta=1, version=None):
        fname = self._key_to_file(key, version)
        with self._locked(fname):
            try:
                with open(fname, "rb") as file:
                    expiry = pickle.load(file)
                    if expiry is not None and expiry < time.time():
                        raise FileNotFoundError
                    value = pickle.loads(zlib.decompress(file.read())) + delta
            except FileNotFoundError:
                raise ValueError(f"Key '{key}' not found") from None
            fd, path = tempfile.mkstemp(dir=os.path.dirname(fname), suffix=".tmp")
            with open(fd, "wb") as file:
                file.write(pickle.dumps(expiry, self.pickle_protocol))
                file.write(zlib.compress(pickle.dumps(value, self.pickle_protocol)))
            os.replace(path, fname)
        return value

    @contextlib.contextmanager
    def _locked(self, fname):
        """One of 256 lock files (by the entry's name), held exclusively."""
        locks = os.path.join(self._dir, ".locks")
        os.makedirs(locks, mode=0o700, exist_ok=True)
        with open(os.path.join(locks, os.path.basename(fname)[:2]), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _list_cache_files(self):
        found = []
        for folder, _folders, files in os.walk(self._dir):
            found.extend(os.path.join(folder, name) for name in files if name.endswith(self.cache_suffix))
        return found

    def _cull(self):
        """Over `MAX_ENTRIES` entries outside the generations: the expired ones go, then the
        least recently written until a tenth is free."""
        names = [name for name in os.listdir(self._dir) if name.endswith(self.cache_suffix)]
        if len(names) < self._max_entries:
            return
        dated = []
        for name in names:
            path = os.path.join(self._dir, name)
            with contextlib.suppress(OSError), open(path, "rb") as file:
                if self._is_expired(file):
                    continue
                dated.append((os.stat(path).st_mtime, path))
        dated.sort()
        for _mtime, path in dated[: max(0, len(dated) - self._max_entries * 9 // 10)]:
            self._delete(path)

    def clear(self):
        if not os.path.isdir(self._dir):
            return
        for entry in os.scandir(self._dir):
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            elif entry.name.endswith(self.cache_suffix):
                self._delete(entry.path)
