"""Where a machine's workers keep the boards they draw (``boards.board_folder``), and how the files are written."""

import os
import stat

from referee.web.scoreboard.boards import BoardFiles, board_folder

TAG = 'W/"g1-3-en-0-abcd1234"'


def mode(path):
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_boards_are_kept_in_shared_memory_in_a_folder_of_this_users_own(tmp_path):
    memory = tmp_path / "shm"
    memory.mkdir()
    folder, private = board_folder(None, str(tmp_path / "instance"), memory)
    assert private and folder.parent == memory and folder.is_dir() and mode(folder) == 0o700
    assert board_folder(None, str(tmp_path / "instance"), memory) == (folder, True)  # every worker finds the same
    other, _ = board_folder(None, str(tmp_path / "another"), memory)  # another app on the machine: its own
    assert other != folder and other.parent == memory


def test_a_folder_set_in_the_settings_wins_and_without_shared_memory_the_instance_folder_holds_them(tmp_path):
    assert board_folder(str(tmp_path / "mine"), str(tmp_path / "instance"), tmp_path) == (tmp_path / "mine", False)
    assert board_folder(None, str(tmp_path / "instance"), tmp_path / "none") == (tmp_path / "instance" / "boards",
                                                                                 False)


def test_a_folder_in_shared_memory_others_may_read_or_write_is_not_used(tmp_path):
    memory = tmp_path / "shm"
    memory.mkdir()
    folder, _ = board_folder(None, str(tmp_path / "instance"), memory)
    os.chmod(folder, 0o777)  # as another user would leave it, had they made it first
    assert board_folder(None, str(tmp_path / "instance"), memory) == (tmp_path / "instance" / "boards", False)
    os.rmdir(folder)
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    os.symlink(tmp_path / "elsewhere", folder)  # nor a link to a folder somewhere else
    assert board_folder(None, str(tmp_path / "instance"), memory) == (tmp_path / "instance" / "boards", False)


def test_a_board_is_written_into_its_folder_made_when_first_needed_and_read_back_whole(tmp_path):
    memory = tmp_path / "shm"
    memory.mkdir()
    files = BoardFiles(*board_folder(None, str(tmp_path / "instance"), memory))
    files.put(TAG, "g1", "en", False, "<p>board</p>")
    assert files.get(TAG, "g1", "en", False) == "<p>board</p>"
    (kept,) = files.folder.glob("*/*.html")
    assert mode(kept.parent) == 0o700
    newer = TAG.replace("-3-", "-4-")
    files.put(newer, "g1", "en", False, "<p>newer</p>")
    (newest,) = files.folder.glob("*/*")  # the older version's file went
    assert newest.name != kept.name and newest.parent == kept.parent
    assert files.get(TAG, "g1", "en", False) is None and files.get(newer, "g1", "en", False) == "<p>newer</p>"


def test_a_shared_memory_folder_cleared_under_a_server_is_made_again_as_its_own_and_only_so(tmp_path):
    memory = tmp_path / "shm"
    memory.mkdir()
    files = BoardFiles(*board_folder(None, str(tmp_path / "instance"), memory))
    for entry in files.folder.iterdir():
        entry.rmdir()
    files.folder.rmdir()  # (shared memory is cleared when the machine restarts, or a user's when they log out)
    files.put(TAG, "g1", "en", False, "<p>board</p>")
    assert mode(files.folder) == 0o700 and files.get(TAG, "g1", "en", False) == "<p>board</p>"
    for entry in files.folder.iterdir():
        for f in entry.iterdir():
            f.unlink()
        entry.rmdir()
    os.chmod(files.folder, 0o777)  # made again by someone else before this server: nothing is written into it
    files.put(TAG, "g2", "en", False, "<p>board</p>")
    assert files.get(TAG, "g2", "en", False) is None and list(files.folder.iterdir()) == []
