"""A player can sit down after the game began: the first hand they play and their starting score

Revision ID: 0010_late_players
Revises: 0009_roster_version
Create Date: 2026-12-06 23:15:00

"""
from alembic import op
import sqlalchemy as sa


revision = '0010_late_players'
down_revision = '0009_roster_version'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('joined_hand', sa.Integer(), nullable=False, server_default='1'))
        batch.add_column(sa.Column('start_total', sa.Integer(), nullable=False, server_default='0'))


def downgrade():
    with op.batch_alter_table('players') as batch:
        batch.drop_column('start_total')
        batch.drop_column('joined_hand')
