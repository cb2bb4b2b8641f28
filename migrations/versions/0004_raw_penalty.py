"""Results keep the raw penalty and the exact-cut bonus apart

Until now a cutter's result held the penalty with the bonus already taken off, and the bonus was added back
wherever the typed total was needed. Each result now holds what the cards cost (``penalty``) and what was taken
off it (``bonus``); the score is their difference.

Revision ID: 0004_raw_penalty
Revises: 0003
Create Date: 2026-12-01 10:45:00

"""
from alembic import op
import sqlalchemy as sa


revision = '0004_raw_penalty'
down_revision = '0003'
branch_labels = None
depends_on = None

# Who cuts, by family, as the rules of each family said when this migration was written: the player left of
# the dealer (the next seat) in Liverpool, the player to the right (the previous seat) elsewhere.
CUT_LEFT = {'liverpool'}


def _cutters(conn):
    """(hand id, seat of its cutter, bonus) for every hand that gave an exact-cut bonus."""
    rows = conn.execute(sa.text(
        "SELECT h.id, h.number, h.cut_bonus, g.family, g.first_dealer, "
        "(SELECT count(*) FROM players p WHERE p.game_id = g.id) "
        "FROM hands h JOIN games g ON g.id = h.game_id WHERE h.cut_bonus <> 0")).fetchall()
    for hand_id, number, bonus, family, first_dealer, players in rows:
        dealer = (first_dealer + number - 1) % players
        cutter = (dealer + 1) % players if family in CUT_LEFT else (dealer - 1) % players
        yield hand_id, cutter, bonus


def upgrade():
    with op.batch_alter_table('results') as batch_op:
        batch_op.add_column(sa.Column('bonus', sa.Integer(), nullable=False, server_default='0'))
    conn = op.get_bind()
    for hand_id, cutter, bonus in list(_cutters(conn)):
        conn.execute(sa.text("UPDATE results SET bonus = :bonus, penalty = penalty + :bonus "
                             "WHERE hand_id = :hand AND seat = :seat"),
                     {"bonus": bonus, "hand": hand_id, "seat": cutter})


def downgrade():
    conn = op.get_bind()
    conn.execute(sa.text("UPDATE results SET penalty = penalty - bonus WHERE bonus <> 0"))
    with op.batch_alter_table('results') as batch_op:
        batch_op.drop_column('bonus')
